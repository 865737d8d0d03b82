import Foundation
import JSONSchema

/// A JSON string literal for `text`, quotes and escapes included.
func jsonString(_ text: String) -> String {
    JSONValue.string(text).serialized()
}

/// Response bodies shaped like OpenAI's Chat Completions API (and servers that copy it).
enum OpenAIBodies {
    static func completion(
        content: String = Fixture.answer.serialized(), finishReason: String = "stop",
        model: String = "gpt-4.1-mini-2025-04-14", completionTokens: Int = 29, reasoningTokens: Int = 0
    ) -> String {
        """
        {
          "id": "chatcmpl-BkTq3vJ9pQ2sX8mW1nE4rY7uZ0aC5",
          "object": "chat.completion",
          "created": 1750339923,
          "model": "\(model)",
          "choices": [
            {
              "index": 0,
              "message": {
                "role": "assistant",
                "content": \(jsonString(content)),
                "refusal": null,
                "annotations": []
              },
              "logprobs": null,
              "finish_reason": "\(finishReason)"
            }
          ],
          "usage": {
            "prompt_tokens": 183,
            "completion_tokens": \(completionTokens),
            "total_tokens": \(183 + completionTokens),
            "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
            "completion_tokens_details": {
              "reasoning_tokens": \(reasoningTokens), "audio_tokens": 0,
              "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0
            }
          },
          "service_tier": "default",
          "system_fingerprint": "fp_6f2eabb9a5"
        }
        """
    }

    /// llama-cpp-python's server: same shape, a local model path, cut off by `max_tokens`.
    static let llamaCppCutOff = """
        {"id":"chatcmpl-6d1f0b7c-55b4-4b8e-9a55-0c1f4f1d2e3a","object":"chat.completion","created":1750339999,\
        "model":"models/qwen2.5-1.5b-instruct-q4_k_m.gguf","choices":[{"index":0,"message":{"role":"assistant",\
        "content":"{\\"goals\\": [\\"Run 10 km"},"logprobs":null,"finish_reason":"length"}],\
        "usage":{"prompt_tokens":201,"completion_tokens":512,"total_tokens":713}}
        """

    static let refusal = """
        {"id":"chatcmpl-BkTr0","object":"chat.completion","created":1750340001,"model":"gpt-4.1-mini-2025-04-14",
         "choices":[{"index":0,"message":{"role":"assistant","content":null,
           "refusal":"I'm sorry, I can't assist with that request.","annotations":[]},
           "logprobs":null,"finish_reason":"stop"}],
         "usage":{"prompt_tokens":183,"completion_tokens":11,"total_tokens":194}}
        """

    static let noChoices = """
        {"id":"chatcmpl-BkTr1","object":"chat.completion","created":1750340002,"model":"gpt-4.1-mini-2025-04-14",
         "choices":[],"usage":{"prompt_tokens":183,"completion_tokens":0,"total_tokens":183}}
        """

    static let nullContent = """
        {"id":"chatcmpl-BkTr2","object":"chat.completion","created":1750340003,"model":"gpt-4.1-mini-2025-04-14",
         "choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":null},"finish_reason":"stop"}],
         "usage":{"prompt_tokens":183,"completion_tokens":0,"total_tokens":183}}
        """

    static func error(_ message: String, type: String, param: String? = nil, code: String? = nil) -> String {
        """
        {
          "error": {
            "message": \(jsonString(message)),
            "type": "\(type)",
            "param": \(param.map(jsonString) ?? "null"),
            "code": \(code.map(jsonString) ?? "null")
          }
        }
        """
    }
}

/// Response bodies shaped like Anthropic's Messages API.
enum AnthropicBodies {
    static func toolUse(input: JSONValue = Fixture.answer, preamble: String? = nil) -> String {
        let text = preamble.map { #"{"type": "text", "text": \#(jsonString($0))},"# } ?? ""
        return """
            {
              "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
              "type": "message",
              "role": "assistant",
              "model": "claude-sonnet-4-5-20250929",
              "content": [
                \(text)
                {
                  "type": "tool_use",
                  "id": "toolu_01A09q90qw90lq917835lq9",
                  "name": "goal_options",
                  "input": \(input.serialized())
                }
              ],
              "stop_reason": "tool_use",
              "stop_sequence": null,
              "usage": {
                "input_tokens": 472, "output_tokens": 61,
                "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
                "service_tier": "standard"
              }
            }
            """
    }

    static func text(_ parts: [String], stopReason: String = "end_turn") -> String {
        let content = parts.map { #"{"type": "text", "text": \#(jsonString($0))}"# }.joined(separator: ", ")
        return """
            {"id": "msg_013Zva2CMHLNnXjNJJKqJ2EF", "type": "message", "role": "assistant",
             "model": "claude-sonnet-4-5-20250929", "content": [\(content)],
             "stop_reason": "\(stopReason)", "stop_sequence": null,
             "usage": {"input_tokens": 2095, "output_tokens": 503}}
            """
    }

    static func error(_ type: String, _ message: String) -> String {
        """
        {"type": "error", "error": {"type": "\(type)", "message": \(jsonString(message))}, "request_id": "req_011CSHoEeqs5C35K2UUqR7Fy"}
        """
    }
}

/// Response bodies shaped like Gemini's `generateContent`.
enum GeminiBodies {
    static func completion(
        parts: [String] = [Fixture.answer.serialized()], finishReason: String = "STOP"
    ) -> String {
        let content = parts.map { #"{"text": \#(jsonString($0))}"# }.joined(separator: ", ")
        return """
            {
              "candidates": [
                {
                  "content": {"parts": [\(content)], "role": "model"},
                  "finishReason": "\(finishReason)",
                  "avgLogprobs": -0.0518,
                  "index": 0
                }
              ],
              "usageMetadata": {
                "promptTokenCount": 95,
                "candidatesTokenCount": 24,
                "totalTokenCount": 359,
                "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 95}],
                "thoughtsTokenCount": 240
              },
              "modelVersion": "gemini-2.5-flash",
              "responseId": "mGl2aN7uM5yWz7IPtq6o8Qk"
            }
            """
    }

    static let blocked = """
        {"promptFeedback": {"blockReason": "PROHIBITED_CONTENT"},
         "usageMetadata": {"promptTokenCount": 95, "totalTokenCount": 95},
         "modelVersion": "gemini-2.5-flash", "responseId": "zXl2aJ3nEoGz7M8P0b2xqQ4"}
        """

    /// A candidate stopped by safety filters: no content at all.
    static let safetyStop = """
        {"candidates": [{"finishReason": "SAFETY", "index": 0, "safetyRatings": [
            {"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "probability": "HIGH", "blocked": true}]}],
         "usageMetadata": {"promptTokenCount": 95, "totalTokenCount": 95}, "modelVersion": "gemini-2.5-flash"}
        """

    /// Cut off by `maxOutputTokens` while thinking: no parts.
    static let maxTokensNoText = """
        {"candidates": [{"content": {"role": "model"}, "finishReason": "MAX_TOKENS", "index": 0}],
         "usageMetadata": {"promptTokenCount": 95, "totalTokenCount": 607, "thoughtsTokenCount": 512},
         "modelVersion": "gemini-2.5-flash"}
        """

    static func error(code: Int, status: String, _ message: String, details: String = "[]") -> String {
        """
        {"error": {"code": \(code), "message": \(jsonString(message)), "status": "\(status)", "details": \(details)}}
        """
    }
}
