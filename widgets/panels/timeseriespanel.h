// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A time-series panel: one line per matched series (per percentile for histogram
// series) over the shared time range, units on the Y axis (linear or log), a legend,
// hover values, drag to zoom, gaps where data is missing. Option "stacked" draws the
// series as stacked areas (compositions); thresholds are dotted lines; compare mode
// adds the earlier range as dashed lines; the crosshair and the highlight are shared
// with the other panels. A focused finding adds its onset marker and emphasises its
// evidence series. Legend names come from the query (the panel's template); option
// legendDisplay "table" shows them in a sortable table with last/min/max/mean below
// the chart instead of above it. Clicking a name (either legend) isolates its line;
// clicking it again shows every line.
#pragma once

#include "itemmodels/legendtablemodel.h"
#include "panels/panelwidget.h"
#include "query/stacking.h"

#include <QColor>
#include <QHash>
#include <QSet>
#include <QWidget>

class QAbstractAxis;
class QAbstractSeries;
class QAreaSeries;
class QChart;
class QDateTimeAxis;
class QLabel;
class QLegendMarker;
class QLineSeries;
class QSortFilterProxyModel;
class QTableView;

namespace Headroom {

class AlertMarksItem;
class LinePlotItem;
class OnsetMarkItem;
struct PlotLine;
class TimeAxesItem;
class ZoomableChartView;

class TimeSeriesPanel : public PanelWidget
{
    Q_OBJECT
public:
    explicit TimeSeriesPanel(const DashboardPanel &config, QWidget *parent = nullptr);

    ZoomableChartView *chartView() const { return m_view; }
    const TimeAxesItem *axes() const { return m_axes; }
    // Firing spans of alerts on this panel's series and firing marks of every alert.
    const AlertMarksItem *alertMarks() const { return m_alertMarks; }
    // Number of line segments drawn (a series with a gap draws two; on a log axis,
    // values <= 0 cannot be drawn and cut the line like a gap).
    int segmentCount() const;
    // The Y axis unit: the panel's own, or the one all its series share; empty when mixed.
    QString axisUnit() const;
    bool stacked() const;
    int areaCount() const { return int(m_areas.size()); }
    const std::vector<StackedBand> &bands() const { return m_bands; }

    void setCrosshair(qint64 ms) override;
    void setHighlight(const Labels &labels) override;
    void setFindingFocus(qint64 onsetMs, const QList<SeriesKey> &evidence) override;
    const OnsetMarkItem *onsetMark() const { return m_onsetMark; }
    // Whether a drawn line (key as in the data; compare lines carry the CompareLabel)
    // is emphasised by the current highlight.
    bool isHighlighted(const SeriesKey &key) const;
    // Pen width of a line, or 0 when it is not drawn (for tests).
    qreal lineWidth(const SeriesKey &key) const;
    // What hovering at a point of the chart (its coordinates) shows: the line nearest
    // the mouse in that pixel column, its time and value; empty when no line is near.
    QString hoverText(const QPointF &chartPosition) const;

    // Shows only this line (and its compare line), or every line again when it is the
    // one isolated. Keys as drawn; a threshold is never isolated.
    void toggleIsolated(const SeriesKey &key);
    const QSet<SeriesKey> &isolated() const { return m_isolated; }
    // The table legend (legendDisplay "table"), nullptr with the list legend.
    QTableView *legendTable() const { return m_legendTable; }
    // The whole name of a list legend entry, which it shows on hover (the entry shows
    // a short one when the legend has no room for it; legendfit.h).
    QString legendFullName(const QLegendMarker *marker) const;
    LegendTableModel *legendModel() const { return m_legendModel; }

    // Pen widths of a line, and of a highlighted one (dense lines paint a pixel narrower).
    static constexpr qreal LineWidth = 2.0;
    static constexpr qreal HighlightWidth = 3.0;
    static constexpr QLatin1StringView CompareLabel { "compare" };
    static constexpr QLatin1StringView ThresholdMetric { "threshold" };
    // Threshold lines: apart from every palette colour (its red is a series colour).
    static inline const QColor WarningColor { 0xe0, 0x9a, 0x00 };
    static inline const QColor CriticalColor { 0x9b, 0x00, 0x1c };

protected:
    void showData() override;
    void resizeEvent(QResizeEvent *event) override;

private:
    QLineSeries *legendEntry(const SeriesKey &line, const QString &name, const QPen &pen);
    QString lineName(const PanelSeriesData &series) const;
    bool hiddenByIsolation(const SeriesKey &key) const;
    void connectMarkers(QAbstractSeries *series, const SeriesKey &key);
    void updateLegendTable();
    void drawLines(const QList<PanelSeriesData> &series, qint64 compareOffsetMs,
                   QSet<SeriesKey> *present, QList<PlotLine> *lines);
    void drawStacked(QSet<SeriesKey> *present);
    void drawThresholds(QSet<SeriesKey> *present);
    void drawAlerts();
    void applyHighlight();
    void showAreaHover(const SeriesKey &key, const QPointF &point, bool state);
    void updateAxes();
    void updateLinearAxis(double lo, double hi, bool any);
    void updateLogAxis(double lo, double hi, bool any);
    void showHover(const QPointF &chartPosition, bool inside);
    // The legend's series with their whole names, in the legend's order.
    QList<std::pair<QAbstractSeries *, QString>> legendSeries() const;
    // Names the list legend's entries so that they fit its width and differ.
    void fitLegend();

    QChart *m_chart;
    ZoomableChartView *m_view;
    QDateTimeAxis *m_axisX;
    QAbstractAxis *m_axisY; // a QValueAxis, or a QLogValueAxis for yScale log
    QLabel *m_emptyLabel;
    QString m_unit;
    bool m_mixedUnits = false;
    TimeAxesItem *m_axes; // paints the axes: grid, labels, unit
    LinePlotItem *m_plot; // paints the data lines
    AlertMarksItem *m_alertMarks; // paints alert spans and firing marks
    OnsetMarkItem *m_onsetMark; // a focused finding's onset
    // Lines are told apart by key, not series id: the percentile lines of one
    // histogram series share its id. Each has a QLineSeries for its legend entry,
    // without points (the plot item draws them), except threshold lines, which are
    // two points each and drawn by the chart.
    QHash<SeriesKey, QLineSeries *> m_legend;
    QHash<SeriesKey, QString> m_names; // each legend entry's name as text (the legend's is HTML)
    QHash<SeriesKey, QAreaSeries *> m_areas; // stacked mode: one band per series
    QHash<SeriesKey, QColor> m_colors; // base colour of each drawn line or band
    std::vector<StackedBand> m_bands;
    Labels m_highlight;
    QSet<SeriesKey> m_isolated; // lines shown alone (keys without the CompareLabel)
    QTableView *m_legendTable = nullptr;
    LegendTableModel *m_legendModel = nullptr;
    QSortFilterProxyModel *m_legendSort = nullptr;
    QList<LegendTableModel::Row> m_legendRows; // filled as lines are drawn
    QSet<SeriesKey> m_evidence; // a focused finding's series (emphasised over the highlight)
    // The legend's series and whole names it was last fitted for.
    QList<std::pair<QAbstractSeries *, QString>> m_fittedFor;
    int m_fittedWidth = -1; // and the width
};

} // namespace Headroom
