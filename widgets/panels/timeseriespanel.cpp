// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "panels/timeseriespanel.h"

#include "charts/alertmarksitem.h"
#include "charts/axisticks.h"
#include "charts/charttext.h"
#include "charts/lineplotitem.h"
#include "charts/onsetmarkitem.h"
#include "charts/timeaxesitem.h"
#include "charts/zoomablechartview.h"
#include "core/valueformat.h"
#include "document/panels/timeseriesoptions.h"
#include "itemmodels/legendtablemodel.h"
#include "literaltext.h"
#include "panels/panelfactory.h"
#include "query/stacking.h"

#include <QAreaSeries>
#include <QChart>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
// Tableau-like palette: distinguishable, and stable per series position.
QColor paletteColor(int index)
{
    static const QList<QColor> colors = {
        QColor(0x1f77b4), QColor(0xff7f0e), QColor(0x2ca02c), QColor(0xd62728), QColor(0x9467bd),
        QColor(0x8c564b), QColor(0xe377c2), QColor(0x7f7f7f), QColor(0xbcbd22), QColor(0x17becf),
    };
    return colors.at(index % colors.size());
}

// The chart's axes only hold the ranges (TimeAxesItem paints what the reader sees).
QAbstractAxis *makeYAxis(YScale scale)
{
    if (scale == YScale::Log) {
        auto *axis = new QLogValueAxis;
        axis->setBase(10);
        return axis;
    }
    return new QValueAxis;
}

// Whether the Y axis can place a value: a log axis has no place for v <= 0 (nor NaN).
bool drawable(double value, YScale scale)
{
    return scale == YScale::Linear || value > 0;
}

// The table legend's order, and its look: the line's colour as a swatch, the names of
// lines hidden by an isolation in grey (the model is GUI-free and gives roles).
class LegendTableProxy : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    QVariant data(const QModelIndex &index, int role) const override
    {
        if (role == Qt::DecorationRole && index.column() == LegendTableModel::NameColumn)
            return QColor::fromRgba(index.data(LegendTableModel::ColorRole).toUInt());
        if (role == Qt::ForegroundRole && !index.data(LegendTableModel::ShownRole).toBool())
            return QColor(Qt::gray);
        return QSortFilterProxyModel::data(index, role);
    }
};

// A statement's whole text under its short legend name ("" for other series).
QString fullStatement(const Labels &labels)
{
    if (!labels.contains(u"queryid"_s) || !labels.contains(u"query"_s))
        return {};
    return u'\n' + labels.value(u"query"_s);
}

} // namespace

TimeSeriesPanel::TimeSeriesPanel(const DashboardPanel &config, QWidget *parent)
    : PanelWidget(config, parent)
    , m_chart(new QChart)
    , m_axisX(new QDateTimeAxis)
    , m_axisY(makeYAxis(config.yScale))
{
    m_chart->setTitle(literalChartText(chartText(config.title))); // a dashboard file's title
    m_chart->setAnimationOptions(QChart::NoAnimation);
    // On top: the chart's margins (below) hold our time labels under the plot, and
    // they would lie under a bottom legend.
    m_chart->legend()->setAlignment(Qt::AlignTop);
    // Names are fitted to the legend's width (fitLegend), and each entry shows its whole
    // name on hover itself: Qt Charts' tooltip would repeat the short one.
    m_chart->legend()->setShowToolTips(false);
    m_chart->addAxis(m_axisX, Qt::AlignBottom);
    m_chart->addAxis(m_axisY, Qt::AlignLeft);
    m_axisX->setVisible(false);
    m_axisY->setVisible(false);
    m_axes = new TimeAxesItem(m_chart, m_axisX, m_axisY); // the chart owns both items
    m_plot = new LinePlotItem(m_chart, m_axisX, m_axisY);
    m_alertMarks = new AlertMarksItem(m_chart, m_axisX, m_axisY);
    m_onsetMark = new OnsetMarkItem(m_chart, m_axisX, m_axisY);
    connect(m_chart, &QChart::plotAreaChanged, this, [this] {
        m_axes->refresh();
        m_plot->refresh();
        m_alertMarks->refresh();
        m_onsetMark->refresh();
    });

    m_view = new ZoomableChartView(m_chart, this); // the view owns the chart
    m_view->setMinimumHeight(120);
    connect(m_view, &ZoomableChartView::rangeSelected, this, &TimeSeriesPanel::rangeSelected);
    connect(m_view, &ZoomableChartView::windowSelected, this, &TimeSeriesPanel::explainRequested);
    connect(m_view, &ZoomableChartView::hoverTimeChanged, this, &TimeSeriesPanel::crosshairMoved);
    connect(m_view, &ZoomableChartView::plotHovered, this, &TimeSeriesPanel::showHover);

    m_emptyLabel = new QLabel(tr("No data in this range"), m_view);
    m_emptyLabel->setObjectName(u"panelMessage"_s);
    m_emptyLabel->setTextFormat(Qt::PlainText); // an engine's words are untrusted text
    m_emptyLabel->setStyleSheet(u"color: gray;"_s);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_view, 3);
    if (timeSeriesLegendDisplay(config) == LegendDisplay::Table) {
        m_chart->legend()->hide();
        m_legendModel = new LegendTableModel(this);
        m_legendSort = new LegendTableProxy(this);
        m_legendSort->setSourceModel(m_legendModel);
        m_legendSort->setSortRole(LegendTableModel::SortRole);
        m_legendTable = new QTableView(this);
        m_legendTable->setModel(m_legendSort);
        // The panel's order (its colours) until the reader sorts by a column.
        m_legendTable->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
        m_legendTable->setSortingEnabled(true);
        m_legendTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
        m_legendTable->horizontalHeader()->setSectionResizeMode(LegendTableModel::NameColumn,
                                                                QHeaderView::Stretch);
        m_legendTable->verticalHeader()->hide();
        m_legendTable->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
        m_legendTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
        m_legendTable->setSelectionMode(QAbstractItemView::NoSelection);
        m_legendTable->setWordWrap(false);
        // A long name keeps both ends ("SELECT … #12345"); hovering shows all of it.
        m_legendTable->setTextElideMode(Qt::ElideMiddle);
        showItemToolTipsLiterally(m_legendTable);
        connect(m_legendTable, &QTableView::clicked, this, [this](const QModelIndex &index) {
            toggleIsolated(index.data(LegendTableModel::KeyRole).value<SeriesKey>());
        });
        layout->addWidget(m_legendTable, 1);
    }
    showData();
}

void TimeSeriesPanel::connectMarkers(QAbstractSeries *series, const SeriesKey &key)
{
    if (key.metric == ThresholdMetric)
        return;
    const auto markers = m_chart->legend()->markers(series);
    for (QLegendMarker *marker : markers)
        connect(marker, &QLegendMarker::clicked, this, [this, key] { toggleIsolated(key); });
}

bool TimeSeriesPanel::hiddenByIsolation(const SeriesKey &key) const
{
    if (m_isolated.isEmpty() || key.metric == ThresholdMetric)
        return false;
    SeriesKey own = key;
    own.labels.remove(CompareLabel);
    return !m_isolated.contains(own);
}

void TimeSeriesPanel::toggleIsolated(const SeriesKey &key)
{
    if (key.metric == ThresholdMetric)
        return;
    SeriesKey own = key;
    own.labels.remove(CompareLabel);
    if (m_isolated == QSet<SeriesKey> { own })
        m_isolated.clear();
    else
        m_isolated = { own };
    showData();
}

QLineSeries *TimeSeriesPanel::legendEntry(const SeriesKey &line, const QString &name,
                                          const QPen &pen)
{
    QLineSeries *&entry = m_legend[line];
    if (!entry) {
        entry = new QLineSeries;
        m_chart->addSeries(entry);
        entry->attachAxis(m_axisX);
        entry->attachAxis(m_axisY);
        // Shown from the start, not at the chart's next layout.
        const auto markers = m_chart->legend()->markers(entry);
        for (QLegendMarker *marker : markers)
            marker->setVisible(true);
        connectMarkers(entry, line);
    }
    // Setting an unchanged name or pen still relayouts the legend (text layout is most
    // of a live refresh's cost), so only changes are passed on. The name shown is
    // fitLegend()'s.
    m_names.insert(line, name);
    if (entry->pen() != pen)
        entry->setPen(pen);
    return entry;
}

void TimeSeriesPanel::drawAlerts()
{
    QSet<SeriesKey> own;
    for (const PanelSeriesData &s : std::as_const(m_data.series))
        own.insert(s.info.key);
    QList<AlertSpan> spans;
    const auto all = alertFiringSpans(m_data.alerts, m_data.fromMs, m_data.toMs);
    for (const AlertSpan &span : all)
        if (own.contains(span.series))
            spans.append(span);
    QList<AlertMark> marks;
    for (const AlertEvent &event : std::as_const(m_data.alerts))
        if (event.state == AlertState::Firing && event.tsMs >= m_data.fromMs
            && event.tsMs <= m_data.toMs)
            marks.append({ event.tsMs, event.severity, event.message });
    m_alertMarks->setAlerts(std::move(spans), std::move(marks));
}

QString TimeSeriesPanel::axisUnit() const
{
    return m_mixedUnits ? QString() : m_unit;
}

void TimeSeriesPanel::showData()
{
    // One unit on the axis only when it is true of every line; otherwise each legend
    // entry carries its own.
    m_unit = m_config.unit;
    m_mixedUnits = false;
    if (m_unit.isEmpty()) {
        for (const PanelSeriesData &s : std::as_const(m_data.series)) {
            if (m_unit.isEmpty())
                m_unit = s.info.unit;
            else if (s.info.unit != m_unit)
                m_mixedUnits = true;
        }
    }
    // An isolated line that is no longer in the data isolates nothing.
    QSet<SeriesKey> drawn;
    for (const PanelSeriesData &s : std::as_const(m_data.series))
        drawn.insert(s.info.key);
    m_isolated.intersect(drawn);
    m_legendRows.clear();
    QSet<SeriesKey> present;
    QList<PlotLine> lines;
    if (stacked())
        drawStacked(&present);
    else
        drawLines(m_data.series, 0, &present, &lines);
    drawLines(m_data.compare, m_data.compareOffsetMs, &present, &lines);
    drawThresholds(&present);
    m_plot->setLines(std::move(lines));
    drawAlerts();
    for (auto it = m_legend.begin(); it != m_legend.end();) {
        if (present.contains(it.key())) {
            ++it;
            continue;
        }
        m_chart->removeSeries(it.value());
        delete it.value();
        m_names.remove(it.key());
        it = m_legend.erase(it);
    }
    const auto areas = m_areas.keys();
    for (const SeriesKey &key : areas) {
        if (!present.contains(key)) {
            m_names.remove(key);
            QAreaSeries *area = m_areas.take(key);
            m_chart->removeSeries(area);
            delete area;
        }
    }
    updateAxes();
    m_onsetMark->refresh(); // the axis range may have moved under it
    applyHighlight();
    // Names of lines hidden by an isolation are greyed, in either legend.
    const QBrush shownBrush = m_chart->legend()->labelBrush(); // the chart theme's
    for (auto it = m_legend.cbegin(); it != m_legend.cend(); ++it) {
        const QBrush brush = hiddenByIsolation(it.key()) ? QBrush(Qt::gray) : shownBrush;
        const auto markers = m_chart->legend()->markers(it.value());
        for (QLegendMarker *marker : markers)
            if (marker->labelBrush() != brush)
                marker->setLabelBrush(brush);
    }
    if (m_legendModel)
        m_legendModel->setRows(m_legendRows);
    fitLegend();
}

void TimeSeriesPanel::resizeEvent(QResizeEvent *event)
{
    PanelWidget::resizeEvent(event);
    fitLegend();
}

bool TimeSeriesPanel::stacked() const
{
    return m_config.options.value(u"stacked"_s).toBool() && m_config.yScale == YScale::Linear;
}

QString TimeSeriesPanel::lineName(const PanelSeriesData &series) const
{
    QString name = series.name.isEmpty() ? seriesDisplayName(series.info) : series.name;
    if (m_mixedUnits && !series.info.unit.isEmpty())
        name += u" ("_s + series.info.unit + u')';
    // The legend, its table and the hover: labels may be hundreds of KB (charttext.h).
    return chartText(name);
}

void TimeSeriesPanel::drawLines(const QList<PanelSeriesData> &series, qint64 compareOffsetMs,
                                QSet<SeriesKey> *present, QList<PlotLine> *lines)
{
    int index = 0;
    for (const PanelSeriesData &s : series) {
        PlotLine line;
        line.key = s.info.key;
        QColor color = paletteColor(index++);
        QString name = lineName(s);
        line.pen = QPen(color, LineWidth);
        if (compareOffsetMs > 0) {
            // The earlier range: same colour, dashed and lighter, its own legend entry.
            const QString offset = formatDuration(compareOffsetMs);
            line.key.labels.insert(CompareLabel, offset);
            color = color.lighter(130);
            line.pen.setColor(color);
            line.pen.setStyle(Qt::DashLine);
            name += u" (−"_s + offset + u')';
        }
        present->insert(line.key);
        m_colors.insert(line.key, color);
        legendEntry(line.key, name, line.pen);
        const bool hidden = hiddenByIsolation(line.key);
        m_legendRows.append({ line.key, name, s.info.unit, color.rgba(), s.stats, !hidden });
        if (hidden) {
            lines->append(std::move(line)); // kept, without segments: not drawn
            continue;
        }
        QPolygonF points;
        const auto cut = [&] {
            if (!points.isEmpty())
                line.segments.append(points);
            points.clear();
        };
        for (size_t part = 0; part < s.segmentStarts.size(); ++part) {
            const size_t begin = s.segmentStarts[part];
            const size_t end
                = part + 1 < s.segmentStarts.size() ? s.segmentStarts[part + 1] : s.points.size();
            points.reserve(qsizetype(end - begin));
            for (size_t i = begin; i < end; ++i) {
                if (drawable(s.points[i].value, m_config.yScale))
                    points.append(QPointF(double(s.points[i].tsMs), s.points[i].value));
                else
                    cut(); // a point the axis cannot place breaks the line there
            }
            cut();
        }
        lines->append(std::move(line));
    }
}

void TimeSeriesPanel::drawStacked(QSet<SeriesKey> *present)
{
    m_bands = stackSeries(m_data.series);
    const auto toPoints = [](const std::vector<Sample> &samples) {
        QList<QPointF> points;
        points.reserve(qsizetype(samples.size()));
        for (const Sample &p : samples)
            points.append(QPointF(double(p.tsMs), p.value));
        return points;
    };
    for (qsizetype i = 0; i < m_data.series.size(); ++i) {
        const SeriesInfo &info = m_data.series.at(i).info;
        present->insert(info.key);
        QAreaSeries *&area = m_areas[info.key];
        if (!area) {
            area = new QAreaSeries(new QLineSeries, new QLineSeries);
            area->upperSeries()->setParent(area); // the area does not own its edges
            area->lowerSeries()->setParent(area);
            m_chart->addSeries(area);
            area->attachAxis(m_axisX);
            area->attachAxis(m_axisY);
            const SeriesKey key = info.key;
            connect(area, &QAreaSeries::hovered, this,
                    [this, key](const QPointF &p, bool state) { showAreaHover(key, p, state); });
            connectMarkers(area, key);
        }
        const QColor color = paletteColor(int(i));
        m_colors.insert(info.key, color);
        const QString name = lineName(m_data.series.at(i));
        m_names.insert(info.key, name); // shown by fitLegend()
        m_legendRows.append({ info.key, name, info.unit, color.rgba(), m_data.series.at(i).stats,
                              !hiddenByIsolation(info.key) });
        area->setColor(color);
        area->setBorderColor(color.darker(120));
        area->upperSeries()->replace(toPoints(m_bands[size_t(i)].upper));
        area->lowerSeries()->replace(toPoints(m_bands[size_t(i)].lower));
    }
}

void TimeSeriesPanel::drawThresholds(QSet<SeriesKey> *present)
{
    // Horizontal lines across the range, keyed like series so they are kept and
    // trimmed the same way.
    const qint64 to = m_data.toMs > 0 ? m_data.toMs : QDateTime::currentMSecsSinceEpoch();
    const qint64 from = m_data.fromMs > 0 ? m_data.fromMs : to - 15 * 60 * 1000;
    const PanelThresholds &t = m_config.thresholds;
    for (const auto &[level, value, color] :
         { std::tuple { u"warning"_s, t.warning, WarningColor },
           std::tuple { u"critical"_s, t.critical, CriticalColor } }) {
        if (qIsNaN(value) || !drawable(value, m_config.yScale))
            continue;
        const SeriesKey key { QString(), ThresholdMetric, { { u"level"_s, level } } };
        present->insert(key);
        // Named in the legend with its bound, so the reader knows what the line means.
        QPen pen(color, 2.0);
        pen.setStyle(Qt::DotLine);
        QLineSeries *line = legendEntry(key, u"%1 %2"_s.arg(level).arg(value, 0, 'g', 4), pen);
        line->replace({ QPointF(double(from), value), QPointF(double(to), value) });
    }
}

void TimeSeriesPanel::setCrosshair(qint64 ms)
{
    m_view->setCrosshair(ms);
}

void TimeSeriesPanel::setHighlight(const Labels &labels)
{
    m_highlight = labels;
    applyHighlight();
}

void TimeSeriesPanel::setFindingFocus(qint64 onsetMs, const QList<SeriesKey> &evidence)
{
    m_evidence = QSet<SeriesKey>(evidence.cbegin(), evidence.cend());
    m_onsetMark->setOnset(onsetMs);
    applyHighlight();
}

bool TimeSeriesPanel::isHighlighted(const SeriesKey &key) const
{
    if (key.metric == ThresholdMetric)
        return false;
    if (!m_evidence.isEmpty()) {
        // A finding's evidence: its series and their compare lines (the earlier range).
        SeriesKey own = key;
        own.labels.remove(CompareLabel);
        return m_evidence.contains(own);
    }
    return !m_highlight.isEmpty() && labelsInclude(key.labels, m_highlight);
}

void TimeSeriesPanel::applyHighlight()
{
    // Emphasis only when something here matches; otherwise the panel stays as it is
    // (a CPU chart has no shard to show).
    bool any = false;
    for (auto it = m_colors.cbegin(); it != m_colors.cend() && !any; ++it)
        any = isHighlighted(it.key());
    for (auto it = m_legend.cbegin(); it != m_legend.cend(); ++it) {
        PlotLine *line = m_plot->line(it.key());
        if (!line)
            continue; // a threshold, or a stacked band's
        const bool on = isHighlighted(it.key());
        QColor color = m_colors.value(it.key());
        if (any && !on)
            color.setAlpha(60);
        line->pen.setColor(color);
        line->pen.setWidthF(on ? HighlightWidth : LineWidth);
        if (it.value()->pen() != line->pen)
            it.value()->setPen(line->pen);
    }
    m_plot->refresh();
    for (auto it = m_areas.cbegin(); it != m_areas.cend(); ++it) {
        QColor color = m_colors.value(it.key());
        if (any && !isHighlighted(it.key()))
            color.setAlpha(60);
        // A band stays in the stack when another is isolated (the others keep their
        // place), faint enough to read the isolated one.
        if (hiddenByIsolation(it.key()))
            color.setAlpha(20);
        it.value()->setColor(color);
    }
}

int TimeSeriesPanel::segmentCount() const
{
    int n = m_plot->segmentCount();
    for (auto it = m_legend.cbegin(); it != m_legend.cend(); ++it)
        n += it.key().metric == ThresholdMetric;
    return n;
}

void TimeSeriesPanel::updateAxes()
{
    const qint64 to = m_data.toMs > 0 ? m_data.toMs : QDateTime::currentMSecsSinceEpoch();
    const qint64 from = m_data.fromMs > 0 ? m_data.fromMs : to - 15 * 60 * 1000;
    m_axisX->setRange(QDateTime::fromMSecsSinceEpoch(from), QDateTime::fromMSecsSinceEpoch(to));

    double lo = INFINITY, hi = -INFINITY;
    bool any = false;
    bool anyFinite = false;
    const auto include = [&](const std::vector<Sample> &points) {
        for (const Sample &p : points) {
            if (!std::isfinite(p.value))
                continue;
            anyFinite = true;
            if (!drawable(p.value, m_config.yScale))
                continue;
            lo = std::min(lo, p.value);
            hi = std::max(hi, p.value);
            any = true;
        }
    };
    if (stacked()) {
        for (const StackedBand &band : m_bands)
            include(band.upper);
    } else {
        for (const PanelSeriesData &s : std::as_const(m_data.series))
            include(s.points);
    }
    for (const PanelSeriesData &s : std::as_const(m_data.compare))
        include(s.points);
    // Thresholds widen the axis only when there is data: an empty panel says so.
    for (const double bound : { m_config.thresholds.warning, m_config.thresholds.critical }) {
        if (any && !qIsNaN(bound) && drawable(bound, m_config.yScale)) {
            lo = std::min(lo, bound);
            // A little above the line, so it does not sit on the plot's edge.
            hi = std::max(hi, bound + std::abs(bound) * 0.05);
        }
    }
    if (m_config.yScale == YScale::Log)
        updateLogAxis(lo, hi, any);
    else
        updateLinearAxis(lo, hi, any);
    if (const QString title = literalChartText(chartText(axisUnit()));
        m_axisY->titleText() != title)
        m_axisY->setTitleText(title);
    m_axes->setUnit(axisUnit());
    // Room for the labels; a change of margins lays the chart out again, so only
    // when the labels need it (a new order of magnitude, a unit).
    const QMargins margins = m_axes->margins();
    if (m_chart->margins() != margins)
        m_chart->setMargins(margins);
    m_axes->refresh();

    // A PromQL engine's error shows over what it did give (the rest is a gap).
    if (!m_data.message.isEmpty())
        m_emptyLabel->setText(m_data.message);
    else
        m_emptyLabel->setText(any || !anyFinite ? tr("No data in this range")
                                                : tr("No values above zero to draw on a log axis"));
    setLiteralToolTip(m_emptyLabel, m_data.warnings.join(u'\n'));
    m_emptyLabel->setVisible(!any || !m_data.message.isEmpty());
    m_emptyLabel->setMaximumWidth(std::max(100, m_view->width() - 20));
    m_emptyLabel->setWordWrap(!m_data.message.isEmpty());
    m_emptyLabel->adjustSize();
    m_emptyLabel->move((m_view->width() - m_emptyLabel->width()) / 2, m_view->height() / 2);
    m_view->setCrosshair(m_view->crosshair()); // the axis range may have moved under it
    m_plot->refresh();
}

void TimeSeriesPanel::updateLinearAxis(double lo, double hi, bool any)
{
    if (!any) {
        lo = 0;
        hi = 1;
    }
    if (m_config.options.contains(u"yMin"_s))
        lo = m_config.options.value(u"yMin"_s).toDouble();
    else
        lo = std::min(lo, 0.0); // rates and utilizations read best from zero
    if (m_config.options.contains(u"yMax"_s))
        hi = std::max(hi, m_config.options.value(u"yMax"_s).toDouble());
    if (hi <= lo)
        hi = lo + 1;
    // Whole steps at both ends, so the top and bottom grid lines are labelled: steps
    // of the unit the axis shows (MiB/s for bytes, s for ms past a second), as its ticks.
    const double factor = unitScale(axisUnit(), std::max(std::abs(lo), std::abs(hi))).factor;
    const double step = niceStep((hi - lo) / factor / 5) * factor;
    lo = std::floor(lo / step) * step;
    hi = std::ceil(hi / step) * step;
    static_cast<QValueAxis *>(m_axisY)->setRange(lo, hi);
}

void TimeSeriesPanel::updateLogAxis(double lo, double hi, bool any)
{
    if (!any) {
        lo = 1;
        hi = 10;
    }
    // Bounds at or below zero have no place on a log axis: such a yMin is ignored.
    const double yMin = m_config.options.value(u"yMin"_s).toDouble(0);
    if (yMin > 0)
        lo = yMin;
    hi = std::max(hi, m_config.options.value(u"yMax"_s).toDouble(0));
    // Whole decades, so every labelled tick is a power of ten.
    lo = std::pow(10.0, std::floor(std::log10(lo)));
    hi = std::pow(10.0, std::ceil(std::log10(hi)));
    if (hi <= lo)
        hi = lo * 10;
    static_cast<QLogValueAxis *>(m_axisY)->setRange(lo, hi);
}

QString TimeSeriesPanel::hoverText(const QPointF &chartPosition) const
{
    constexpr double Reach = 8; // pixels from the line that still count as on it
    if (const QString alert = m_alertMarks->markAt(chartPosition); !alert.isEmpty())
        return alert;
    const PlotMapping mapping = m_plot->mapping();
    if (!mapping.plot.contains(chartPosition))
        return {};
    const double ms = mapping.xMin
        + (chartPosition.x() - mapping.plot.left()) / mapping.plot.width()
            * (mapping.xMax - mapping.xMin);
    const PlotLine *nearest = nullptr;
    QPointF value;
    double best = Reach;
    for (const PlotLine &line : m_plot->lines()) {
        for (const QPolygonF &segment : line.segments) {
            if (segment.isEmpty())
                continue;
            auto it = std::lower_bound(segment.begin(), segment.end(), ms,
                                       [](const QPointF &p, double t) { return p.x() < t; });
            // The point before or after the instant, whichever is nearer in time.
            if (it == segment.end() || (it != segment.begin() && ms - (it - 1)->x() < it->x() - ms))
                --it;
            const QPointF at = mapping.map(*it);
            const double distance = std::abs(at.y() - chartPosition.y());
            if (std::abs(at.x() - chartPosition.x()) <= Reach && distance <= best) {
                best = distance;
                nearest = &line;
                value = *it;
            }
        }
    }
    if (!nearest)
        return {};
    SeriesKey key = nearest->key;
    key.labels.remove(CompareLabel);
    QString unit;
    for (const PanelSeriesData &s : std::as_const(m_data.series)) {
        if (s.info.key == key)
            unit = s.info.unit;
    }
    const QDateTime when = QDateTime::fromMSecsSinceEpoch(qint64(value.x()));
    const QString time = when.toString(u"yyyy-MM-dd HH:mm:ss "_s) + when.timeZoneAbbreviation();
    ValueFormat format;
    format.digits = ValueFormat::Digits::Significant;
    format.precision = 4;
    const QString text = u"%1\n%2\n%3"_s.arg(m_names.value(nearest->key), time,
                                             formatValue(value.y(), unit, format));
    return text + fullStatement(key.labels);
}

void TimeSeriesPanel::showHover(const QPointF &chartPosition, bool inside)
{
    showLiteralToolTip(QCursor::pos(), inside ? hoverText(chartPosition) : QString());
}

} // namespace Headroom

namespace Headroom {

void TimeSeriesPanel::showAreaHover(const SeriesKey &key, const QPointF &point, bool state)
{
    if (!state) {
        QToolTip::hideText();
        return;
    }
    // The band's own value at the nearest stacked instant, not the running total.
    for (qsizetype i = 0; i < m_data.series.size() && size_t(i) < m_bands.size(); ++i) {
        if (m_data.series.at(i).info.key != key)
            continue;
        const StackedBand &band = m_bands[size_t(i)];
        if (band.upper.empty())
            return;
        const auto it = std::lower_bound(band.upper.begin(), band.upper.end(), qint64(point.x()),
                                         [](const Sample &p, qint64 t) { return p.tsMs < t; });
        const size_t at = std::min(size_t(it - band.upper.begin()), band.upper.size() - 1);
        const double value = band.upper[at].value - band.lower[at].value;
        const QDateTime when = QDateTime::fromMSecsSinceEpoch(band.upper[at].tsMs);
        showLiteralToolTip(
            QCursor::pos(),
            u"%1\n%2\n%3 %4"_s
                    .arg(lineName(m_data.series.at(i)), when.toString(u"yyyy-MM-dd HH:mm:ss"_s))
                    .arg(value, 0, 'g', 4)
                    .arg(m_data.series.at(i).info.unit)
                + fullStatement(key.labels));
        return;
    }
}

} // namespace Headroom

namespace Headroom {

qreal TimeSeriesPanel::lineWidth(const SeriesKey &key) const
{
    if (const PlotLine *line = m_plot->line(key))
        return line->segments.isEmpty() ? 0.0 : line->pen.widthF();
    const QLineSeries *entry = m_legend.value(key);
    return entry ? entry->pen().widthF() : 0.0;
}

template<>
PanelWidget *createPanelWidgetOf<PanelType::TimeSeries>(const DashboardPanel &config,
                                                        QWidget *parent)
{
    return new TimeSeriesPanel(config, parent);
}

} // namespace Headroom
