import App
import AppCore
import Catalog
import Classes
import Foundation
import Hummingbird
import Learners

/// Classes over HTTP: an adult's own classes under /v1/classes, a child's assignments under
/// /v1/me/assignments, and the two ways in that need no account yet (an adult's sign-up, a
/// child's picture sign-in). Who asks comes from the request context only; the service
/// decides what they may see.
struct ClassRoutes: Sendable {
    let classes: ClassService
    let learning: LearningService
    /// Adults' credentials (sign-up counts a taken name like a wrong password).
    let attempts: FailedAttempts
    /// Children's pictures, per address: sized for a school behind one router.
    let childAttempts: FailedAttempts
    /// A roster is a small CSV file.
    static let maxRoster = 64 << 10

    /// Sign-up and the child's sign-in, beside /v1/session.
    func publicCollection() -> RouteCollection<VocabRequestContext> {
        let routes = RouteCollection(context: VocabRequestContext.self)
        routes.post("signup") { request, context in try await signUp(request, context: context) }
        routes.post("session/child") { request, context in try await signInChild(request, context: context) }
        routes.get("pictures") { _, _ in try LearnerRoutes.json(PicturesBody()) }
        return routes
    }

    func collection() -> RouteCollection<VocabRequestContext> {
        let routes = RouteCollection(context: VocabRequestContext.self)
        routes.add(middleware: LearnerAuthenticator(learning: learning, attempts: attempts))
        routes.get("me/assignments") { _, context in try LearnerRoutes.json(try await classes.assignments(for: try context.learner())) }
        routes.get("classes") { _, context in try LearnerRoutes.json(try await classes.classes(of: try context.learner())) }
        routes.post("classes") { request, context in
            let body = try await LearnerRoutes.decode(NewClass.self, from: request, context: context)
            let made = try await classes.createClass(named: body.name, by: try context.learner())
            return try LearnerRoutes.json(ClassSummary(made, children: 0, assignments: 0), status: .created)
        }
        routes.get("classes/{code}") { _, context in
            try LearnerRoutes.json(try await classes.details(try code(context), by: try context.learner()))
        }
        routes.delete("classes/{code}") { _, context in
            try await classes.deleteClass(try code(context), by: try context.learner())
            return Self.noContent
        }
        routes.post("classes/{code}/children") { request, context in try await addChildren(request, context: context) }
        routes.delete("classes/{code}/children/{child}") { request, context in
            let learner = try context.learner()
            let code = try code(context)
            let child = try child(context)
            if try QueryParameters(request.uri.query)["erase"] == "true" {
                try await classes.deleteChild(child, in: code, by: learner)
            } else {
                try await classes.removeChild(child, from: code, by: learner)
            }
            return Self.noContent
        }
        routes.post("classes/{code}/children/{child}/pictures") { _, context in
            try LearnerRoutes.json(try await classes.resetPictures(of: try child(context), in: try code(context), by: try context.learner()))
        }
        routes.post("classes/{code}/children/{child}/unlock") { _, context in
            try LearnerRoutes.json(try await classes.unlock(try child(context), in: try code(context), by: try context.learner()))
        }
        routes.post("classes/{code}/children/{child}/invitation") { _, context in
            try LearnerRoutes.json(try await classes.invite(try child(context), in: try code(context), by: try context.learner()), status: .created)
        }
        routes.get("classes/{code}/assignments") { _, context in
            try LearnerRoutes.json(try await classes.details(try code(context), by: try context.learner()).assignments)
        }
        routes.post("classes/{code}/assignments") { request, context in
            let body = try await LearnerRoutes.decode(NewAssignment.self, from: request, context: context)
            let level = try body.level.map { text throws(Failure) in try InputRules.level(text) }
            let due = try body.due.map { text throws(Failure) in Double(try CalendarDay(parsing: text).daysSinceEpoch) * 86_400 }
            let made = try await classes.assign(
                to: try code(context), category: body.category, level: level, words: body.words ?? [],
                dueAt: due, by: try context.learner())
            return try LearnerRoutes.json(made, status: .created)
        }
        routes.delete("classes/{code}/assignments/{assignment}") { _, context in
            let id = try HTTPInput.pathText(context.parameters["assignment"], name: "assignment")
            try await classes.unassign(id, from: try code(context), by: try context.learner())
            return Self.noContent
        }
        routes.get("classes/{code}/progress") { _, context in
            try LearnerRoutes.json(try await classes.progress(of: try code(context), by: try context.learner()))
        }
        routes.get("classes/{code}/progress.csv") { _, context in
            let report = try await classes.progress(of: try code(context), by: try context.learner())
            return Response(
                status: .ok,
                headers: [
                    .contentType: "text/csv; charset=utf-8", .cacheControl: "no-store",
                    .contentDisposition: "attachment; filename=\"class-\(report.code).csv\"",
                ],
                body: ResponseBody(byteBuffer: ByteBuffer(string: report.csv)))
        }
        return routes
    }

    static var noContent: Response { Response(status: .noContent, headers: [.cacheControl: "no-store"]) }

    func code(_ context: VocabRequestContext) throws -> String {
        try HTTPInput.pathText(context.parameters["code"], name: "class code")
    }

    func child(_ context: VocabRequestContext) throws -> Int64 {
        guard let id = Int64(try HTTPInput.pathText(context.parameters["child"], name: "child")) else { throw Failure.badItem() }
        return try InputRules.item(id)
    }

    struct NewClass: Decodable { var name: String }

    struct NewAssignment: Decodable {
        var category: String?
        var level: String?
        var words: [String]?
        /// YYYY-MM-DD.
        var due: String?
    }

    /// One child by name, several (a roster's CSV text), or a child of another class with their sign-in.
    struct NewChildren: Decodable {
        var name: String?
        var csv: String?
        var join: Join?
    }

    struct ChildSignIn: Decodable {
        var code: String
        var name: String
        var pictures: [Int]
    }

    /// A child of another adult's class, with the invitation that adult gave.
    struct Join: Decodable {
        var invitation: String?
        /// Joining with a child's own sign-in is no longer taken: it let anyone who guessed the
        /// pictures take the child along.
        var pictures: [Int]?
    }

    struct AddedChildren: Encodable {
        var added: [NewChild]
        var joined: [ChildSummary]
    }

    func addChildren(_ request: Request, context: VocabRequestContext) async throws -> Response {
        let adult = try context.learner()
        let code = try code(context)
        let body = try await LearnerRoutes.decode(NewChildren.self, from: request, context: context)
        var result = AddedChildren(added: [], joined: [])
        if let name = body.name { result.added.append(try await classes.addChild(named: name, to: code, by: adult)) }
        if let csv = body.csv {
            guard csv.utf8.count <= Self.maxRoster else { throw Failure(.bodyTooLarge, "a roster may have at most \(Self.maxRoster) bytes.") }
            result.added += try await classes.importChildren(csv: csv, to: code, by: adult)
        }
        if let join = body.join {
            guard let invitation = join.invitation, join.pictures == nil else {
                throw Failure(
                    .badRequest,
                    "a child joins another adult's class with an invitation from the adult who added them: {\"join\":{\"invitation\":\"ABCDE-FGHJK\"}}.")
            }
            result.joined.append(try await classes.addExistingChild(to: code, invitation: invitation, by: adult))
        }
        guard body.name != nil || body.csv != nil || body.join != nil else {
            throw Failure(.badJSON, "give a child's name, a roster as csv, or join with an invitation code.")
        }
        return try LearnerRoutes.json(result, status: .created)
    }

    struct SignUpRequest: Decodable {
        var name: String
        var password: String
    }

    func signUp(_ request: Request, context: VocabRequestContext) async throws -> Response {
        let address = try attempts.check(request, context)
        try SessionRoutes.requireJSON(request)
        let body = try await LearnerRoutes.decode(SignUpRequest.self, from: request, context: context)
        do {
            let (learner, session) = try await classes.signUp(name: body.name, password: body.password)
            var response = try LearnerRoutes.json(
                SessionRoutes.SessionBody(id: learner.id, name: learner.name, csrf: Sessions.csrf(for: session)),
                status: .created)
            response.headers[.setCookie] = SessionCookie.set(session)
            return response
        } catch let error as LearnerError {
            // A taken name counts like a failed sign-in: names cannot be listed by signing up.
            if case .nameTaken = error { attempts.fail(address) }
            throw error
        }
    }

    func signInChild(_ request: Request, context: VocabRequestContext) async throws -> Response {
        let address = try childAttempts.check(request, context)
        try SessionRoutes.requireJSON(request)
        let body = try await LearnerRoutes.decode(ChildSignIn.self, from: request, context: context)
        let learner: Learner
        let session: String
        switch try await classes.signInChild(code: body.code, firstName: body.name, pictures: body.pictures) {
        case .signedIn(let who, let started): (learner, session) = (who, started)
        case .refused:
            childAttempts.fail(address)
            throw APIError.unauthorized("the class code, name or pictures are wrong.")
        case .locked(let until):
            childAttempts.fail(address)
            let wait = max(1, Int((until - learning.now()).rounded(.up)))
            throw APIError(FailureClassifier.classify(ClassError.signInLocked(retryAfter: wait)), headers: [.retryAfter: "\(wait)"])
        }
        var response = try LearnerRoutes.json(
            SessionRoutes.SessionBody(
                id: learner.id, name: body.name.trimmingCharacters(in: .whitespaces),
                csrf: Sessions.csrf(for: session)))
        response.headers[.setCookie] = SessionCookie.set(session)
        return response
    }

    struct PicturesBody: Encodable {
        struct Picture: Encodable {
            var index: Int
            var picture: String
            var name: String
        }
        var pictures = ClassRules.pictures.indices.map { Picture(index: $0, picture: ClassRules.pictures[$0], name: ClassRules.pictureNames[$0]) }
        var choose = ClassRules.picturesChosen
    }
}
