import Library
import Quiz
import Definitions

extension Vocab {
    /// Exit codes of the learning commands: 1 when the word or saved item is not there,
    /// 64 for empty input, 65 when the data cannot make a quiz.
    static func describeLearning(_ error: Error) -> (String, Int32)? {
        switch error {
        case let e as DefineError: return (e.description, 1)
        case let e as DefinitionError: return (e.description, e == .emptyWord ? 64 : 1)
        case let e as LibraryError: return (e.description, e == .emptyWord ? 64 : 1)
        case let e as QuizError:
            if case .noWords = e { return (e.description, 1) }
            return (e.description, 65)
        default: return nil
        }
    }
}
