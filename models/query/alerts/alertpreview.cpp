// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/alerts/alertpreview.h"

#include "document/dashboard.h"
#include "engine/alerts/alertevaluator.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"

#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

QString AlertPreview::summary() const
{
    if (matchedSeries == 0)
        return u"No known series matches this rule yet."_s;
    if (firings == 0)
        return u"Would not have fired over the range (%1 series watched)."_s.arg(matchedSeries);
    QSet<QString> instances;
    for (const AlertSpan &span : spans)
        instances.insert(span.series.toString());
    const qint64 seconds = std::max<qint64>(1, firingMs / 1000);
    const QString total = seconds >= 3600
        ? u"%1h %2m"_s.arg(seconds / 3600).arg(seconds % 3600 / 60)
        : seconds >= 60 ? u"%1m %2s"_s.arg(seconds / 60).arg(seconds % 60)
                        : u"%1s"_s.arg(seconds);
    return u"Would have fired %1 time(s) on %2 of %3 series, %4 firing in all."_s.arg(firings)
        .arg(instances.size())
        .arg(matchedSeries)
        .arg(total);
}

AlertPreview previewAlertRule(const AlertRule &rule, const SeriesRegistry &registry,
                              const SeriesStore &store, qint64 fromMs, qint64 toMs)
{
    AlertPreview preview;
    preview.fromMs = fromMs;
    preview.toMs = toMs;
    AlertRule replayed = rule;
    replayed.enabled = true; // a disabled rule still previews
    const qint64 startMs = fromMs - replayed.windowMs
        - (replayed.reducer == AlertReducer::Change ? replayed.baselineMs : 0);

    // Every sample the rule reads, merged in time order so guards see their sibling's
    // newest value as the live engine would.
    struct Item
    {
        qint64 tsMs;
        int series; // index into infos
        double value;
        LogHistogram histogram;
    };
    QList<SeriesInfo> infos;
    std::vector<Item> items;
    QList<int> ids = registry.ids();
    std::sort(ids.begin(), ids.end());
    for (int id : std::as_const(ids)) {
        const auto info = registry.info(id);
        if (!info || !replayed.reads(info->key))
            continue;
        const bool watched = replayed.selector.matches(info->key);
        preview.matchedSeries += watched ? 1 : 0;
        const int index = int(infos.size());
        infos.append(*info);
        std::vector<Sample> plotted;
        if (info->histogram) {
            for (auto &[ts, h] : store.readHistograms(id, startMs, toMs)) {
                if (watched && ts >= fromMs) {
                    const double shown = replayed.reducer == AlertReducer::Percentile
                        ? h.quantile(replayed.percentile / 100.0)
                        : (h.isEmpty() ? qQNaN() : h.sum() / double(h.count()));
                    plotted.push_back({ ts, shown });
                }
                items.push_back({ ts, index, 0, std::move(h) });
            }
        } else {
            for (const Sample &s : store.read(id, startMs, toMs)) {
                items.push_back({ s.tsMs, index, s.value, {} });
                if (watched && s.tsMs >= fromMs)
                    plotted.push_back(s);
            }
        }
        if (watched && preview.plotted.size() < AlertPreview::MaxPlotted)
            preview.plotted.append({ *info, std::move(plotted) });
    }
    std::stable_sort(items.begin(), items.end(),
                     [](const Item &a, const Item &b) { return a.tsMs < b.tsMs; });

    AlertEvaluator evaluator;
    evaluator.setRules({ replayed });
    QList<AlertEvent> events;
    for (const Item &item : items) {
        const SeriesInfo &info = infos[item.series];
        events += info.histogram ? evaluator.addHistogram(info, item.tsMs, item.histogram)
                                 : evaluator.addSample(info, { item.tsMs, item.value });
    }
    // The range's end is "now" for no-data: a series that stopped early is judged.
    events += evaluator.checkNoData(toMs);
    for (const AlertEvent &event : std::as_const(events))
        if (event.tsMs >= fromMs && event.tsMs <= toMs)
            preview.events.append(event);
    preview.spans = alertFiringSpans(events, fromMs, toMs);
    for (const AlertSpan &span : std::as_const(preview.spans))
        preview.firingMs += span.endMs - span.startMs;
    preview.firings
        = int(std::count_if(preview.events.cbegin(), preview.events.cend(),
                            [](const AlertEvent &e) { return e.state == AlertState::Firing; }));
    return preview;
}

} // namespace Headroom
