import CommandCore

Launcher(arguments: Array(CommandLine.arguments.dropFirst())).run()
