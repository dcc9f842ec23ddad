import ArgumentParser
import CLICore

/// --reading-style (ReadingStyle and ReadingDisplay live in CLICore, which the launcher shares).
extension ReadingStyle: ExpressibleByArgument {}
