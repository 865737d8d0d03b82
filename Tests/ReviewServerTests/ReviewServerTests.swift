import Testing
@testable import ReviewServer
