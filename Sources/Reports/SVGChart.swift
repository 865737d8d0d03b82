import Foundation

/// Small inline SVG charts for the HTML report: no script, no external assets.
enum SVGChart {
    struct Series {
        var name: String
        var values: [Double]
        /// A CSS class from the report's stylesheet, which sets the fill.
        var style: String
    }

    static let width = 320.0
    static let height = 150.0
    static let margin = (left: 40.0, right: 8.0, top: 10.0, bottom: 34.0)

    /// Grouped bars: one group per label, one bar per series.
    static func bars(title: String, labels: [String], series: [Series], unit: String) -> String {
        let peak = max(series.flatMap(\.values).max() ?? 0, 1e-9)
        let plotWidth = width - margin.left - margin.right
        let plotHeight = height - margin.top - margin.bottom
        let groupWidth = plotWidth / Double(max(labels.count, 1))
        let barWidth = groupWidth * 0.8 / Double(max(series.count, 1))
        var shapes: [String] = axis(peak: peak, unit: unit)
        for (index, label) in labels.enumerated() {
            let groupX = margin.left + Double(index) * groupWidth + groupWidth * 0.1
            for (seriesIndex, line) in series.enumerated() {
                let value = index < line.values.count ? line.values[index] : 0
                let barHeight = plotHeight * value / peak
                let x = groupX + Double(seriesIndex) * barWidth
                shapes.append(
                    "<rect class=\"\(line.style)\" x=\"\(format(x))\" y=\"\(format(margin.top + plotHeight - barHeight))\" width=\"\(format(barWidth))\" height=\"\(format(barHeight))\"><title>\(HTML.escape("\(label) · \(line.name): \(format(value)) \(unit)"))</title></rect>")
            }
            shapes.append(
                "<text class=\"tick\" x=\"\(format(groupX + groupWidth * 0.4))\" y=\"\(format(height - margin.bottom + 12))\" text-anchor=\"middle\">\(HTML.escape(short(label)))</text>")
        }
        return figure(title: title, shapes: shapes, legend: series.count > 1 ? series : [])
    }

    /// A line over ordered points (oldest first), values from 0 to 1 shown as percentages.
    static func rateLine(title: String, labels: [String], rates: [Double]) -> String {
        let plotWidth = width - margin.left - margin.right
        let plotHeight = height - margin.top - margin.bottom
        let step = rates.count > 1 ? plotWidth / Double(rates.count - 1) : 0
        let points = rates.enumerated().map { index, rate in
            (margin.left + Double(index) * step + (rates.count == 1 ? plotWidth / 2 : 0), margin.top + plotHeight * (1 - rate))
        }
        var shapes = axis(peak: 100, unit: "%")
        if points.count > 1 {
            shapes.append("<polyline class=\"rate\" points=\"\(points.map { "\(format($0.0)),\(format($0.1))" }.joined(separator: " "))\"/>")
        }
        for (index, point) in points.enumerated() {
            shapes.append(
                "<circle class=\"rate-point\" cx=\"\(format(point.0))\" cy=\"\(format(point.1))\" r=\"3\"><title>\(HTML.escape("\(labels[index]): \(format(rates[index] * 100)) %"))</title></circle>")
        }
        if let first = labels.first, let last = labels.last {
            shapes.append("<text class=\"tick\" x=\"\(format(margin.left))\" y=\"\(format(height - margin.bottom + 12))\">\(HTML.escape(short(first)))</text>")
            if labels.count > 1 {
                shapes.append("<text class=\"tick\" x=\"\(format(width - margin.right))\" y=\"\(format(height - margin.bottom + 12))\" text-anchor=\"end\">\(HTML.escape(short(last)))</text>")
            }
        }
        return figure(title: title, shapes: shapes, legend: [])
    }

    private static func axis(peak: Double, unit: String) -> [String] {
        let plotHeight = height - margin.top - margin.bottom
        return [0.0, 0.5, 1.0].flatMap { fraction -> [String] in
            let y = margin.top + plotHeight * (1 - fraction)
            return [
                "<line class=\"grid\" x1=\"\(format(margin.left))\" x2=\"\(format(width - margin.right))\" y1=\"\(format(y))\" y2=\"\(format(y))\"/>",
                "<text class=\"tick\" x=\"\(format(margin.left - 4))\" y=\"\(format(y + 3))\" text-anchor=\"end\">\(format(peak * fraction))\(unit == "%" ? "%" : "")</text>",
            ]
        }
    }

    private static func figure(title: String, shapes: [String], legend: [Series]) -> String {
        let legendHTML = legend.isEmpty ? "" : "<div class=\"legend\">" + legend.map {
            "<span><i class=\"swatch \($0.style)\"></i>\(HTML.escape($0.name))</span>"
        }.joined() + "</div>"
        return """
            <figure class="chart"><figcaption>\(HTML.escape(title))</figcaption>\
            <svg viewBox="0 0 \(format(width)) \(format(height))" role="img" aria-label="\(HTML.escape(title))">\(shapes.joined())</svg>\(legendHTML)</figure>
            """
    }

    private static func short(_ label: String) -> String {
        label.count > 14 ? String(label.prefix(13)) + "…" : label
    }

    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e9 { return String(Int(value)) }
        return String(format: value < 10 ? "%.2f" : "%.1f", value)
    }
}
