import CLICore

Launcher(arguments: Array(CommandLine.arguments.dropFirst())).run()
