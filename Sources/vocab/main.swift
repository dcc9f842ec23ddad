import VocabCommands

await Vocab.runMain()
