// A time-series panel: one line per matched series over the shared time range, units
// on the Y axis, a legend, hover values, drag to zoom, gaps where data is missing.
#pragma once

#include "dashboard/dashboard.h"
#include "panelquery.h"

#include <QHash>
#include <QWidget>

class QChart;
class QDateTimeAxis;
class QLabel;
class QLineSeries;
class QValueAxis;

namespace Headroom {

class ZoomableChartView;

class TimeSeriesPanel : public QWidget
{
    Q_OBJECT
public:
    explicit TimeSeriesPanel(const DashboardPanel &config, QWidget *parent = nullptr);

    const DashboardPanel &config() const { return m_config; }
    const PanelData &data() const { return m_data; }
    void setData(const PanelData &panelData);
    ZoomableChartView *chartView() const { return m_view; }
    // Number of line segments drawn (a series with a gap draws two).
    int segmentCount() const;
    // The Y axis unit: the panel's own, or the one all its series share; empty when mixed.
    QString axisUnit() const;

Q_SIGNALS:
    void rangeSelected(qint64 fromMs, qint64 toMs);

private:
    QLineSeries *segment(int seriesId, int index, const QString &name, const QColor &color);
    void trimSegments(int seriesId, int keep);
    void updateAxes();
    void showHover(const QLineSeries *line, const QPointF &point, bool state);

    DashboardPanel m_config;
    PanelData m_data;
    QChart *m_chart;
    ZoomableChartView *m_view;
    QDateTimeAxis *m_axisX;
    QValueAxis *m_axisY;
    QLabel *m_emptyLabel;
    QString m_unit;
    bool m_mixedUnits = false;
    QHash<int, QList<QLineSeries *>> m_segments; // series id -> its drawn segments
    QHash<const QLineSeries *, int> m_seriesOfLine;
};

} // namespace Headroom
