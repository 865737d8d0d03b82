import Evaluation
import Foundation
import Hummingbird
import Intake
import Logging
import NIOCore

/// `trainer-eval serve`: the review pages of a project over HTTP.
///
/// It listens on loopback unless told otherwise. Pages can be read by anyone who can
/// reach the address; accepting, discarding and labelling need the per-process token
/// the printed address carries in its fragment (never sent to a server; the page's
/// script keeps it in the browser's storage for this origin, port included, and adds
/// it to each form as it is sent), and are refused from another origin. See `RequestPolicy`.
public struct ReviewServer: Sendable {
    public let project: Project
    public let host: String
    /// 0 picks a free port.
    public let port: Int

    public init(project: Project, host: String = "127.0.0.1", port: Int = 0) {
        self.project = project
        self.host = host
        self.port = port
    }

    /// A form is never larger than this.
    static let maximumFormBytes = 256 * 1024

    /// Serves until the process is interrupted (SIGINT or SIGTERM). `onReady` hears the
    /// address to open, its token included, once the server listens.
    public func run(onReady: @escaping @Sendable (URL) -> Void) async throws {
        let site = try ReviewSite(project: project)
        // The newest run's report is what a reviewer opens first: read it while they find the page.
        Task.detached(priority: .background) {
            if let latest = try? site.runs().first { _ = site.report(of: latest) }
        }
        let handler = RequestHandler(site: site, actions: ReviewActions(site: site), token: RequestPolicy.makeToken())
        let router = Router()
        router.add(middleware: handler)
        handler.addRoutes(to: router)
        var logger = Logger(label: "trainer-eval.serve")
        logger.logLevel = .error
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "trainer-eval"),
            onServerRunning: { [host] channel in
                let port = channel.localAddress?.port ?? 0
                handler.listening(host: host, port: port)
                onReady(URL(string: "http://\(RequestPolicy.urlHost(host)):\(port)/#token=\(handler.token)")!)
            },
            logger: logger)
        try await app.runService()
    }
}

/// Checks every request (`RequestPolicy`), routes it, and frames its page.
final class RequestHandler: RouterMiddleware, Sendable {
    typealias Context = BasicRequestContext

    let site: ReviewSite
    let actions: ReviewActions
    let token: String
    private let policy = PolicyBox()

    init(site: ReviewSite, actions: ReviewActions, token: String) {
        self.site = site
        self.actions = actions
        self.token = token
    }

    func listening(host: String, port: Int) {
        policy.set(RequestPolicy(token: token, host: host, port: port))
    }

    /// Every request names this server's own address in its `Host`, or is refused
    /// before anything is read; every answer forbids framing, sniffing and caching.
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let policy = policy.value else { return Self.refusal("The server is starting; try again.", status: 503) }
        if let refusal = policy.checkHost(request.head.authority) {
            return Self.refusal(refusal.description, status: refusal.status)
        }
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] =
            "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.cacheControl] = "no-store"
        response.headers[.init("Referrer-Policy")!] = "same-origin"
        response.headers[.init("X-Frame-Options")!] = "DENY"
        return response
    }

    func addRoutes(to router: Router<Context>) {
        router.get("/") { request, _ in await self.page(request) { pages, _ in try pages.home() } }
        router.get("/runs") { request, _ in await self.page(request) { pages, query in try pages.runs(page: query["page"]) } }
        router.get("/runs/:run") { request, context in
            let run = context.parameters.get("run") ?? ""
            return await self.page(request) { pages, query in try pages.run(run, page: query["page"], attention: query["filter"] == "attention") }
        }
        router.get("/runs/:run/step") { request, context in
            let run = context.parameters.get("run") ?? ""
            return await self.page(request) { pages, query in try pages.runStep(run, fixture: query["fixture"], step: query["step"]) }
        }
        router.get("/queue") { request, _ in await self.page(request) { pages, query in try pages.queue(track: query["track"], page: query["page"]) } }
        router.get("/golden") { request, _ in
            await self.page(request) { pages, query in try pages.golden(track: query["track"], page: query["page"], unlabelled: query["filter"] == "unlabelled") }
        }
        router.get("/step") { request, _ in
            await self.page(request) { pages, query in try pages.step(track: query["track"], fixture: query["fixture"], step: query["step"]) }
        }
        router.get("/agreement") { request, _ in await self.page(request) { pages, query in try await pages.agreement(track: query["track"]) } }
        router.get("/compare") { request, _ in await self.page(request) { pages, query in try pages.compare(base: query["base"], head: query["head"]) } }
        router.get("/assets/review.js") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/javascript; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: Assets.script)))
        }

        router.post("/accept") { request, _ in
            await self.act(request) { form in
                let key = try await self.actions.accept(
                    track: form["track"], fixture: form["fixture"], step: form["step"], fingerprint: form["fingerprint"], confirmed: form["confirm"] == "yes")
                return self.next(after: key, track: form["track"], done: .accepted)
            }
        }
        router.post("/accept-unsafe") { request, _ in
            await self.act(request) { form in
                let key = try await self.actions.acceptUnsafe(
                    track: form["track"], fixture: form["fixture"], step: form["step"], fingerprint: form["fingerprint"],
                    reason: form["reason"], reviewer: form["reviewer"], confirmed: form["confirm"] == "yes")
                return self.next(after: key, track: form["track"], done: .acceptedUnsafe)
            }
        }
        router.post("/reject") { request, _ in
            await self.act(request) { form in
                let key = try await self.actions.discard(track: form["track"], fixture: form["fixture"], step: form["step"], fingerprint: form["fingerprint"])
                return self.next(after: key, track: form["track"], done: .discarded)
            }
        }
        router.post("/label") { request, _ in
            await self.act(request) { form in
                let written = try await self.actions.label(
                    .init(
                        track: form["track"], fixture: form["fixture"], step: form["step"], pending: form["target"] == "pending",
                        outputDigest: form["digest"], previousLabel: form["previous"], verdict: form["verdict"], reasons: form.all("reason"),
                        note: form["note"], reviewer: form["reviewer"]))
                let done: Done = written.label.verdict == .sign ? .signed : .rejected
                return Links.step(track: form["track"] ?? ReviewSite.Track.baseID, key: written.key)
                    + "&" + FormFields.query([("done", done.rawValue), ("done-key", written.key.description)]) + "#label"
            }
        }
    }

    /// Where the review goes after an output left the queue: the next pending one, else the queue.
    /// The write is done by now: a queue that cannot be read leads to the queue page.
    private func next(after key: StepKey, track: String?, done: Done) -> String {
        let here = ReviewSite.Queued(track: track ?? ReviewSite.Track.baseID, key: key)
        let notice = FormFields.query([("done", done.rawValue), ("done-key", key.description)])
        guard let queue = try? site.queue(), let index = try? site.queueIndex(after: here, in: queue), index < queue.count else {
            return "/queue?" + notice
        }
        return Links.step(track: queue[index].track, key: queue[index].key) + "&" + notice
    }

    // MARK: Answers

    /// A page, with any error shown as a page with its status, and the notice of what
    /// the last action did (`done`, one of `Done`'s, about the step `done-key` names).
    private func page(_ request: Request, _ make: (ReviewPages, FormFields) async throws -> Page) async -> Response {
        let query = FormFields(request.uri.query)
        let pages = ReviewPages(site: site)
        var page: Page
        do {
            page = try await make(pages, query)
        } catch let error as PageError {
            page = Page(title: "Not shown", body: "<h1>Not shown</h1>", status: error.status, notice: .init(text: error.description, isError: true))
        } catch {
            page = Page(title: "Error", body: "<h1>Error</h1>", status: 500, notice: .init(text: String(describing: error), isError: true))
        }
        if page.notice == nil, let done = query["done"].flatMap(Done.init(rawValue:)) {
            page.notice = .init(text: done.text(query["done-key"] ?? "the output"), isError: false)
        }
        return Self.html(page.document(), status: page.status)
    }

    /// What an action did, as the page it leads to says it: a fixed sentence, so a
    /// link cannot make a page say anything else.
    enum Done: String {
        case accepted, acceptedUnsafe = "accepted-unsafe", discarded, signed, rejected

        func text(_ key: String) -> String {
            switch self {
            case .accepted: "Accepted \(key)."
            case .acceptedUnsafe: "Accepted \(key), with the reason kept beside it."
            case .discarded: "Discarded the pending output of \(key)."
            case .signed: "Labelled \(key): signed."
            case .rejected: "Labelled \(key): rejected, with the reasons below (it stays as it is in golden/)."
            }
        }
    }

    /// A form's action: refused without the token or from another origin; on success a
    /// redirect (so reloading never repeats it), else the reason on a page.
    private func act(_ request: Request, _ perform: (FormFields) async throws -> String) async -> Response {
        var request = request
        guard let body = try? await request.collectBody(upTo: ReviewServer.maximumFormBytes) else {
            return Self.refusal("The form is larger than \(ReviewServer.maximumFormBytes) bytes.", status: 413)
        }
        let form = FormFields(String(buffer: body))
        let fetchSite = request.headers[.init("Sec-Fetch-Site")!]
        if let refusal = policy.value?.checkWrite(origin: request.headers[.origin], fetchSite: fetchSite, token: form["token"]) {
            return Self.refusal(refusal.description, status: refusal.status)
        }
        do {
            return Response(status: .seeOther, headers: [.location: try await perform(form)])
        } catch let error as PageError {
            let back = form["fixture"].flatMap { fixture in form["step"].map { Links.step(track: form["track"] ?? ReviewSite.Track.baseID, key: StepKey(fixture: fixture, step: $0)) } } ?? "/queue"
            let page = Page(
                title: "Nothing changed", body: "<h1>Nothing changed</h1><p><a \(Links.href(back))>Back to the output</a></p>", status: error.status,
                notice: .init(text: error.description, isError: true))
            return Self.html(page.document(), status: error.status)
        } catch {
            let page = Page(title: "Error", body: "<h1>Error</h1>", status: 500, notice: .init(text: String(describing: error), isError: true))
            return Self.html(page.document(), status: 500)
        }
    }

    static func html(_ text: String, status: Int) -> Response {
        Response(
            status: HTTPResponse.Status(code: status), headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func refusal(_ text: String, status: Int) -> Response {
        Response(
            status: HTTPResponse.Status(code: status), headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }
}

/// The request policy, known once the server listens (its port may have been picked then).
private final class PolicyBox: @unchecked Sendable {
    private let lock = NSLock()
    private var policy: RequestPolicy?

    var value: RequestPolicy? { lock.withLock { policy } }

    func set(_ policy: RequestPolicy) {
        lock.withLock { self.policy = policy }
    }
}
