#include "query/panels/heatmappanel.h"

#include "core/csvcell.h"
#include "engine/seriesstore.h"
#include "query/heatmap/heatmapquery.h"
#include "query/promql/promqlheatmap.h"

#include <QDateTime>
#include <QLocale>
#include <QTimeZone>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

static_assert(std::is_same_v<PanelPayloadOf<PanelType::Heatmap>, HeatmapGrid>);

namespace {

QString heatmapCsvRows(const PanelData &data)
{
    QString out;
    const HeatmapGrid &grid = data.as<HeatmapGrid>();
    if (grid.rows() == 0 || grid.columns <= 0 || data.series.isEmpty())
        return out;
    const SeriesKey &key = data.series.first().info.key;
    const QString prefix = u',' + csvText(data.panelId) + u',' + csvText(key.source) + u','
        + csvText(key.metric) + u',';
    QStringList rowFields; // labels and the separators around them, per row
    for (int r = 0; r < grid.rows(); ++r) {
        const Labels labels {
            { u"bucket"_s, heatmapRowLabel(grid, r) },
            { u"gt_ms"_s,
              QString::number(grid.lowerBoundMs(r), 'g', QLocale::FloatingPointShortest) },
            { u"le_ms"_s,
              QString::number(grid.upperBoundsMs.at(r), 'g', QLocale::FloatingPointShortest) },
        };
        rowFields.append(csvText(labelsToString(labels)) + u',');
    }
    const double columnMs = double(grid.toMs - grid.fromMs) / grid.columns;
    for (int c = 0; c < grid.columns; ++c) {
        const QString time = QDateTime::fromMSecsSinceEpoch(
                                 grid.fromMs + qint64(std::floor(c * columnMs)), QTimeZone::UTC)
                                 .toString(Qt::ISODateWithMs);
        for (int r = 0; r < grid.rows(); ++r) {
            const double value = grid.at(r, c);
            if (value > 0)
                out += time + prefix + rowFields.at(r) + csvNumber(value) + u",1/s\r\n"_s;
        }
    }
    return out;
}

} // namespace

const PanelDescriptor &heatmapPanel()
{
    static constexpr PanelDescriptor descriptor {
        .type = PanelType::Heatmap,
        .showsAlerts = false,
        .supportsCompare = false,
        .readsSeries = true,
        .query =
            [](const PanelQueryRequest &r) {
                if (!r.panel.query.isEmpty())
                    return queryPromqlHeatmap(r.panel, r.store.promqlEngines(), r.fromMs, r.toMs,
                                              r.columns, QDateTime::currentMSecsSinceEpoch());
                return queryHeatmapPanel(r.panel, r.registry, r.store, r.fromMs, r.toMs, r.columns);
            },
        .csvRows = heatmapCsvRows,
    };
    return descriptor;
}

} // namespace Headroom
