#include "timeseriespanel.h"

#include "stacking.h"
#include "zoomablechartview.h"

#include <QAreaSeries>
#include <QChart>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
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

QString timeFormatFor(qint64 spanMs)
{
    if (spanMs <= 2 * 3600 * 1000LL)
        return QStringLiteral("HH:mm:ss");
    if (spanMs <= 48 * 3600 * 1000LL)
        return QStringLiteral("HH:mm");
    return QStringLiteral("MM-dd HH:mm");
}

QAbstractAxis *makeYAxis(YScale scale)
{
    if (scale == YScale::Log) {
        auto *axis = new QLogValueAxis;
        axis->setBase(10);
        axis->setLabelFormat(u"%g"_s);
        // Labels sit on powers of ten only; grid lines at 2..9 make values readable.
        axis->setMinorTickCount(-1);
        return axis;
    }
    auto *axis = new QValueAxis;
    axis->setLabelFormat(QStringLiteral("%.3g"));
    return axis;
}

// Whether the Y axis can place a value: a log axis has no place for v <= 0 (nor NaN).
bool drawable(double value, YScale scale)
{
    return scale == YScale::Linear || value > 0;
}
} // namespace

TimeSeriesPanel::TimeSeriesPanel(const DashboardPanel &config, QWidget *parent)
    : PanelWidget(config, parent)
    , m_chart(new QChart)
    , m_axisX(new QDateTimeAxis)
    , m_axisY(makeYAxis(config.yScale))
{
    m_chart->setTitle(config.title);
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->legend()->setShowToolTips(true);
    m_chart->setMargins(QMargins(4, 2, 4, 2));
    m_axisX->setTickCount(6);
    m_chart->addAxis(m_axisX, Qt::AlignBottom);
    m_chart->addAxis(m_axisY, Qt::AlignLeft);

    m_view = new ZoomableChartView(m_chart, this); // the view owns the chart
    m_view->setMinimumHeight(120);
    connect(m_view, &ZoomableChartView::rangeSelected, this, &TimeSeriesPanel::rangeSelected);
    connect(m_view, &ZoomableChartView::hoverTimeChanged, this, &TimeSeriesPanel::crosshairMoved);

    m_emptyLabel = new QLabel(tr("No data in this range"), m_view);
    m_emptyLabel->setStyleSheet(QStringLiteral("color: gray;"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    showData();
}

QLineSeries *TimeSeriesPanel::segment(const SeriesKey &line, int index, const QString &name,
                                      const QColor &color)
{
    QList<QLineSeries *> &lines = m_segments[line];
    while (lines.size() <= index) {
        auto *part = new QLineSeries;
        m_chart->addSeries(part);
        part->attachAxis(m_axisX);
        part->attachAxis(m_axisY);
        connect(part, &QLineSeries::hovered, this,
                [this, part](const QPointF &p, bool state) { showHover(part, p, state); });
        m_lineOfSegment.insert(part, line);
        lines.append(part);
    }
    QLineSeries *part = lines.at(index);
    part->setName(name);
    QPen pen(color);
    pen.setWidthF(1.5);
    part->setPen(pen);
    // Only the first segment of a line has a legend entry.
    const auto markers = m_chart->legend()->markers(part);
    for (QLegendMarker *marker : markers)
        marker->setVisible(index == 0);
    return part;
}

void TimeSeriesPanel::trimSegments(const SeriesKey &line, int keep)
{
    QList<QLineSeries *> &lines = m_segments[line];
    while (lines.size() > keep) {
        QLineSeries *part = lines.takeLast();
        m_lineOfSegment.remove(part);
        m_chart->removeSeries(part);
        delete part;
    }
    if (lines.isEmpty())
        m_segments.remove(line);
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
    QSet<SeriesKey> present;
    if (stacked())
        drawStacked(&present);
    else
        drawLines(m_data.series, 0, &present);
    drawLines(m_data.compare, m_data.compareOffsetMs, &present);
    drawThresholds(&present);
    const auto lines = m_segments.keys();
    for (const SeriesKey &line : lines) {
        if (!present.contains(line))
            trimSegments(line, 0);
    }
    const auto areas = m_areas.keys();
    for (const SeriesKey &key : areas) {
        if (!present.contains(key)) {
            QAreaSeries *area = m_areas.take(key);
            m_chart->removeSeries(area);
            delete area;
        }
    }
    updateAxes();
    applyHighlight();
    // Antialiasing dense lines costs most of a redraw and shows nothing at a point per
    // pixel; sparse lines (zoomed in, few series) keep it.
    qsizetype points = 0;
    for (const PanelSeriesData &s : std::as_const(m_data.series))
        points += qsizetype(s.points.size());
    m_view->setRenderHint(QPainter::Antialiasing, points < 2 * std::max(1, m_view->width()));
}

bool TimeSeriesPanel::stacked() const
{
    return m_config.options.value(u"stacked"_s).toBool() && m_config.yScale == YScale::Linear;
}

QString TimeSeriesPanel::lineName(const SeriesInfo &info) const
{
    QString name = seriesDisplayName(info);
    if (m_mixedUnits && !info.unit.isEmpty())
        name += QStringLiteral(" (") + info.unit + u')';
    return name;
}

void TimeSeriesPanel::drawLines(const QList<PanelSeriesData> &series, qint64 compareOffsetMs,
                                QSet<SeriesKey> *present)
{
    int index = 0;
    for (const PanelSeriesData &s : series) {
        SeriesKey line = s.info.key;
        QColor color = paletteColor(index++);
        QString name = lineName(s.info);
        Qt::PenStyle style = Qt::SolidLine;
        if (compareOffsetMs > 0) {
            // The earlier range: same colour, dashed and lighter, its own legend entry.
            const QString offset = formatDuration(compareOffsetMs);
            line.labels.insert(CompareLabel, offset);
            color = color.lighter(130);
            style = Qt::DashLine;
            name += u" (−"_s + offset + u')';
        }
        present->insert(line);
        m_colors.insert(line, color);
        int segmentIndex = 0;
        QList<QPointF> points;
        const auto draw = [&] {
            if (!points.isEmpty()) {
                QLineSeries *part = segment(line, segmentIndex++, name, color);
                QPen pen = part->pen();
                pen.setStyle(style);
                part->setPen(pen);
                part->replace(points);
            }
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
                    draw(); // a point the axis cannot place breaks the line there
            }
            draw();
        }
        trimSegments(line, segmentIndex);
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
        }
        const QColor color = paletteColor(int(i));
        m_colors.insert(info.key, color);
        area->setName(lineName(info));
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
        QLineSeries *line = segment(key, 0, u"%1 %2"_s.arg(level).arg(value, 0, 'g', 4), color);
        QPen pen = line->pen();
        pen.setStyle(Qt::DotLine);
        pen.setWidthF(2.0);
        line->setPen(pen);
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

bool TimeSeriesPanel::isHighlighted(const SeriesKey &key) const
{
    if (m_highlight.isEmpty() || key.metric == ThresholdMetric)
        return false;
    for (auto it = m_highlight.cbegin(); it != m_highlight.cend(); ++it) {
        if (key.labels.value(it.key()) != it.value())
            return false;
    }
    return true;
}

void TimeSeriesPanel::applyHighlight()
{
    // Emphasis only when something here matches; otherwise the panel stays as it is
    // (a CPU chart has no shard to show).
    bool any = false;
    for (auto it = m_colors.cbegin(); it != m_colors.cend() && !any; ++it)
        any = isHighlighted(it.key());
    for (auto it = m_segments.cbegin(); it != m_segments.cend(); ++it) {
        if (it.key().metric == ThresholdMetric)
            continue;
        const bool on = isHighlighted(it.key());
        QColor color = m_colors.value(it.key());
        if (any && !on)
            color.setAlpha(60);
        for (QLineSeries *part : it.value()) {
            QPen pen = part->pen();
            pen.setColor(color);
            pen.setWidthF(on ? 3.0 : 1.5);
            part->setPen(pen);
        }
    }
    for (auto it = m_areas.cbegin(); it != m_areas.cend(); ++it) {
        QColor color = m_colors.value(it.key());
        if (any && !isHighlighted(it.key()))
            color.setAlpha(60);
        it.value()->setColor(color);
    }
}

int TimeSeriesPanel::segmentCount() const
{
    int n = 0;
    for (const auto &lines : m_segments)
        n += int(lines.size());
    return n;
}

void TimeSeriesPanel::updateAxes()
{
    const qint64 to = m_data.toMs > 0 ? m_data.toMs : QDateTime::currentMSecsSinceEpoch();
    const qint64 from = m_data.fromMs > 0 ? m_data.fromMs : to - 15 * 60 * 1000;
    m_axisX->setRange(QDateTime::fromMSecsSinceEpoch(from), QDateTime::fromMSecsSinceEpoch(to));
    m_axisX->setFormat(timeFormatFor(to - from));

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
    m_axisY->setTitleText(axisUnit());

    m_emptyLabel->setText(any || !anyFinite ? tr("No data in this range")
                                            : tr("No values above zero to draw on a log axis"));
    m_emptyLabel->setVisible(!any);
    m_emptyLabel->adjustSize();
    m_emptyLabel->move((m_view->width() - m_emptyLabel->width()) / 2, m_view->height() / 2);
    m_view->setCrosshair(m_view->crosshair()); // the axis range may have moved under it
}

void TimeSeriesPanel::updateLinearAxis(double lo, double hi, bool any)
{
    if (!any) {
        lo = 0;
        hi = 1;
    }
    if (m_config.options.contains(QStringLiteral("yMin")))
        lo = m_config.options.value(QStringLiteral("yMin")).toDouble();
    else
        lo = std::min(lo, 0.0); // rates and utilizations read best from zero
    if (m_config.options.contains(QStringLiteral("yMax")))
        hi = std::max(hi, m_config.options.value(QStringLiteral("yMax")).toDouble());
    if (hi <= lo)
        hi = lo + 1;
    auto *axis = static_cast<QValueAxis *>(m_axisY);
    axis->setRange(lo, hi);
    axis->applyNiceNumbers();
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

void TimeSeriesPanel::showHover(const QLineSeries *line, const QPointF &point, bool state)
{
    if (!state) {
        QToolTip::hideText();
        return;
    }
    SeriesKey key = m_lineOfSegment.value(line);
    key.labels.remove(CompareLabel);
    QString unit;
    for (const PanelSeriesData &s : std::as_const(m_data.series)) {
        if (s.info.key == key)
            unit = s.info.unit;
    }
    const QDateTime when = QDateTime::fromMSecsSinceEpoch(qint64(point.x()));
    const QString time
        = when.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss ")) + when.timeZoneAbbreviation();
    QToolTip::showText(QCursor::pos(),
                       QStringLiteral("%1\n%2\n%3 %4")
                           .arg(line->name(), time)
                           .arg(point.y(), 0, 'g', 4)
                           .arg(unit));
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
        QToolTip::showText(
            QCursor::pos(),
            u"%1\n%2\n%3 %4"_s
                .arg(lineName(m_data.series.at(i).info), when.toString(u"yyyy-MM-dd HH:mm:ss"_s))
                .arg(value, 0, 'g', 4)
                .arg(m_data.series.at(i).info.unit));
        return;
    }
}

} // namespace Headroom

namespace Headroom {

qreal TimeSeriesPanel::lineWidth(const SeriesKey &key) const
{
    const auto it = m_segments.constFind(key);
    return it == m_segments.cend() || it->isEmpty() ? 0.0 : it->first()->pen().widthF();
}

} // namespace Headroom
