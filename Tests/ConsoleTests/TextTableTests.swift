import Console
import Testing

/// Tables for terminals: numbers right-aligned, text left-aligned, nothing cut.
struct TextTableTests {
    @Test func numbersAlignRightAndTextLeft() {
        let table = TextTable(header: ["run", "model", "steps", "pass", "time"], rows: [
            ["a", "openai-compatible qwen2.5-coder-1.5b-instruct-q4_k_m", "113", "13%", "1.1s"],
            ["bb", "gpt", "4", "-", "12.0s"],
        ])
        #expect(table.rendered == """
            run  model                                                 steps  pass   time
            a    openai-compatible qwen2.5-coder-1.5b-instruct-q4_k_m    113   13%   1.1s
            bb   gpt                                                       4     -  12.0s
            """)
    }
}
