import Foundation

/// Reads single key presses from a terminal on standard input: no Enter needed,
/// nothing echoed. The terminal's settings come back when the reader is done.
public final class KeyReader {
    private var saved = termios()
    private var isRaw = false

    public init() {
        guard tcgetattr(0, &saved) == 0 else { return }
        var raw = saved
        // Ctrl-C and Ctrl-D arrive as keys (quit), so no signal can leave the terminal raw.
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        isRaw = tcsetattr(0, TCSANOW, &raw) == 0
    }

    /// The next key, nil at the end of input.
    public func next() -> Character? {
        var byte: UInt8 = 0
        while true {
            let count = read(0, &byte, 1)
            if count == 1 { return Character(Unicode.Scalar(byte)) }
            if count < 0, errno == EINTR { continue }
            return nil
        }
    }

    public func restore() {
        guard isRaw else { return }
        tcsetattr(0, TCSANOW, &saved)
        isRaw = false
    }

    deinit { restore() }
}
