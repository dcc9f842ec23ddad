import CLI

// Every command, with argument-parser's help and errors. The `vocab` launcher runs this
// program for everything it does not answer itself.
await Vocab.runMain()
