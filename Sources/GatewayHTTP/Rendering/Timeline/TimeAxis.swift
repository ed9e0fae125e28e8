import Entitle
import GatewayCore
import Wire

/// The ticks under a timeline, with a step chosen by the span shown so that labels never crowd:
/// months for up to two years, quarters (labelled by year) up to eight, years up to thirty,
/// then every five or ten years. Pure, deterministic.
package struct TimeAxis: Equatable {
    package struct Tick: Equatable {
        package var at: Instant
        /// Nil for a minor tick.
        package var label: String?
    }

    package var ticks: [Tick]

    package init(from: Instant, to: Instant) {
        let days = (to.millisecondsSinceEpoch - from.millisecondsSinceEpoch) / 86_400_000
        let (stepMonths, labelEvery): (Int64, Int64) = switch days {
        case ...731: (1, 1)
        case ...2_922: (3, 12)
        case ...10_958: (12, 12)
        case ...36_525: (60, 60)
        default: (120, 120)
        }
        var ticks: [Tick] = []
        let first = CivilDate(daysSinceEpoch: Self.floorDays(from))
        // Months since year 0, rounded up to the step so ticks fall on round dates.
        var index = first.year * 12 + (first.month - 1)
        if Self.monthStart(index) < from { index += 1 }
        index = (index + stepMonths - 1) / stepMonths * stepMonths
        while Self.monthStart(index) < to, ticks.count < 400 {
            let month = Int(index % 12), year = index / 12
            let label: String? = if stepMonths == 1 {
                month == 0 || ticks.isEmpty ? "\(SupportSentence.months[month].prefix(3)) \(year)" : String(SupportSentence.months[month].prefix(3))
            } else if index % labelEvery == 0 {
                "\(year)"
            } else {
                nil
            }
            ticks.append(Tick(at: Self.monthStart(index), label: label))
            index += stepMonths
        }
        self.ticks = ticks
    }

    private static func monthStart(_ index: Int64) -> Instant {
        Instant(secondsSinceEpoch: CivilDate(year: index / 12, month: index % 12 + 1, day: 1).daysSinceEpoch * 86_400)
    }

    private static func floorDays(_ t: Instant) -> Int64 {
        let ms = t.millisecondsSinceEpoch
        return ms >= 0 ? ms / 86_400_000 : -((-ms + 86_400_000 - 1) / 86_400_000)
    }
}
