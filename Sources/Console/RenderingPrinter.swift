import Intake
import JSONSchema
import Pipeline

/// `render`: the exact messages each step would send, with a header saying which prompt
/// version and variant, which settings, and where each earlier output came from.
public struct RenderingPrinter {
    let out: Terminal

    public init(out: Terminal = .standardOutput) {
        self.out = out
    }

    public func print(
        _ stepIDs: [StepID], of plan: FixturePlan, prompts: PromptLibrary, upstream: any UpstreamOutputs
    ) throws(FixturePlan.RenderingError) {
        for (index, stepID) in stepIDs.enumerated() {
            let rendering = try plan.rendering(of: stepID, upstream: upstream)
            guard let step = stepID.step else { continue }
            if index > 0 { out.writeLine() }
            print(step, id: stepID, rendering: rendering, prompts: prompts)
        }
    }

    private func print(_ step: PipelineStep, id: StepID, rendering: FixturePlan.Rendering, prompts: PromptLibrary) {
        let rendered = prompts.render(step, input: rendering.input)
        let meta = rendered.metadata
        let prompt = prompts[step]
        let variant = prompt.variant.map { " variant \($0)" } ?? ""
        out.writeLine(out.styled(
            "# \(id) · \(step.rawValue) version \(meta.version)\(variant) · temperature \(meta.temperature) · max_tokens \(meta.maxTokens)"
                + " · schema \(prompt.schemaFile)\(meta.compactJSON == true ? " · compact JSON" : "")", .dim))
        if let name = prompt.variant {
            let files = prompt.variantFiles
            let inherited = files.inherited.map { "\($0.file) (\($0.from))" }
            out.writeLine(out.styled("# variant \(name) overrides \(files.overridden.joined(separator: ", ")); inherits "
                + (inherited.isEmpty ? "nothing" : inherited.joined(separator: ", ")), .dim))
        }
        for source in rendering.upstream { out.writeLine(out.styled("# \(source)", .dim)) }
        out.writeLine(out.styled("## system", .bold))
        out.writeLine(rendered.system)
        out.writeLine()
        out.writeLine(out.styled("## user", .bold))
        out.writeLine(rendered.user)
        if rendered.schema != prompt.replySchemaDocument {
            out.writeLine()
            out.writeLine(out.styled("## reply schema (fitted to this person; the file's is \(prompt.schemaFile))", .bold))
            out.writeLine(rendered.schema.serialized(JSONWriteOptions(pretty: true)))
        }
    }
}
