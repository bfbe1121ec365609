// A time-series panel: one line per matched series (per percentile for histogram
// series) over the shared time range, units on the Y axis (linear or log), a legend,
// hover values, drag to zoom, gaps where data is missing.
#pragma once

#include "panelwidget.h"

#include <QHash>
#include <QWidget>

class QAbstractAxis;
class QChart;
class QDateTimeAxis;
class QLabel;
class QLineSeries;

namespace Headroom {

class ZoomableChartView;

class TimeSeriesPanel : public PanelWidget
{
    Q_OBJECT
public:
    explicit TimeSeriesPanel(const DashboardPanel &config, QWidget *parent = nullptr);

    ZoomableChartView *chartView() const { return m_view; }
    // Number of line segments drawn (a series with a gap draws two; on a log axis,
    // values <= 0 cannot be drawn and cut the line like a gap).
    int segmentCount() const;
    // The Y axis unit: the panel's own, or the one all its series share; empty when mixed.
    QString axisUnit() const;

protected:
    void render() override;

private:
    QLineSeries *segment(const SeriesKey &line, int index, const QString &name,
                         const QColor &color);
    void trimSegments(const SeriesKey &line, int keep);
    void updateAxes();
    void updateLinearAxis(double lo, double hi, bool any);
    void updateLogAxis(double lo, double hi, bool any);
    void showHover(const QLineSeries *line, const QPointF &point, bool state);

    QChart *m_chart;
    ZoomableChartView *m_view;
    QDateTimeAxis *m_axisX;
    QAbstractAxis *m_axisY; // a QValueAxis, or a QLogValueAxis for yScale log
    QLabel *m_emptyLabel;
    QString m_unit;
    bool m_mixedUnits = false;
    // Lines are told apart by key, not series id: the percentile lines of one
    // histogram series share its id.
    QHash<SeriesKey, QList<QLineSeries *>> m_segments; // line -> its drawn segments
    QHash<const QLineSeries *, SeriesKey> m_lineOfSegment;
};

} // namespace Headroom
