import Testing
@testable import Reports

@Suite("Markdown rendering for the report")
struct MarkdownHTMLTests {
    @Test func rendersTheProgramLayout() {
        let html = MarkdownHTML.render("""
            # Keisha's plan
            **Goal:** Walk 8,000 steps · *gently*

            ---

            ## Day 1: Full body (25 min)
            - **Goblet squat**: 3 × 10, rest 60 s.
            - Knee push-up: `3 × 8`
              - nested cue
            1. first
            2. second
            """)
        #expect(html.contains("<h1>Keisha&#39;s plan</h1>"))
        #expect(html.contains("<p><strong>Goal:</strong> Walk 8,000 steps · <em>gently</em></p>"))
        #expect(html.contains("<hr>"))
        #expect(html.contains("<h2>Day 1: Full body (25 min)</h2>"))
        #expect(html.contains("<li><strong>Goblet squat</strong>: 3 × 10, rest 60 s.</li>"))
        #expect(html.contains("<li>Knee push-up: <code>3 × 8</code><ul><li>nested cue</li></ul></li>"))
        #expect(html.contains("<ol><li>first</li><li>second</li></ol>"))
    }

    @Test func rendersTablesWithAlignment() {
        let html = MarkdownHTML.render("""
            | week | sets |
            |:---|---:|
            | 1-4 | **3** |
            | 5-8 | 4 |
            """)
        #expect(html == "<table><thead><tr><th>week</th><th style=\"text-align:right\">sets</th></tr></thead><tbody><tr><td>1-4</td><td style=\"text-align:right\"><strong>3</strong></td></tr><tr><td>5-8</td><td style=\"text-align:right\">4</td></tr></tbody></table>")
    }

    @Test func modelHTMLIsShownAsTextNeverAsMarkup() {
        let html = MarkdownHTML.render("""
            # Plan <script>alert(1)</script>
            <img src=x onerror=alert(2)>
            - **<b onclick="x()">bold</b>**
            | a<iframe> |
            |---|
            | <svg onload=alert(3)> |
            ```
            </code></pre><script>alert(4)</script>
            ```
            """)
        for tag in ["<script", "<img", "<b ", "<iframe", "<svg", "onerror=alert(2)>"] {
            #expect(!html.contains(tag), "\(tag) reached the page as markup")
        }
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;"))
    }

    @Test func onlyWebLinksBecomeAnchors() {
        let html = MarkdownHTML.render("[guide](https://example.org/a?b=1&c=2) [bad](javascript:alert(1)) [local](file:///etc/passwd)")
        #expect(html.contains("<a href=\"https://example.org/a?b=1&amp;c=2\" rel=\"noopener noreferrer\">guide</a>"))
        #expect(!html.contains("href=\"javascript"))
        #expect(!html.contains("href=\"file"))
        #expect(html.contains("bad (javascript:alert(1))"))
    }

    @Test func snakeCaseIsNotEmphasis() {
        #expect(MarkdownHTML.render("use rest_seconds and days_per_week") == "<p>use rest_seconds and days_per_week</p>")
    }

    @Test func unclosedMarkersStayLiteral() {
        #expect(MarkdownHTML.render("3 * 10 reps, **unfinished") == "<p>3 * 10 reps, **unfinished</p>")
    }
}
