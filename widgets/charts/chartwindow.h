// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A non-modal window with one time chart, e.g. the series behind a USE matrix cell.
// The owner keeps it current: on every refresh it queries chart() for the window's
// range and passes the result to setData() (or calls refreshNow()).
#pragma once

#include "document/dashboard.h"
#include "query/panelquery.h"

#include <QDialog>

namespace Headroom {

class SeriesRegistry;
class SeriesStore;
class TimeSeriesPanel;

class ChartWindow : public QDialog
{
    Q_OBJECT
public:
    // Deletes itself when closed (Qt::WA_DeleteOnClose): hold it in a QPointer.
    explicit ChartWindow(const DashboardPanel &chart, QWidget *parent = nullptr);

    const DashboardPanel &chart() const;
    TimeSeriesPanel *panel() const { return m_panel; }
    // Pixel columns to query for (the chart's width).
    int columns() const;

    void setData(const PanelData &panelData);
    // Queries chart() synchronously and shows the result: a handful of series, cheap
    // enough for the GUI thread.
    void refreshNow(const SeriesRegistry &registry, const SeriesStore &store, qint64 fromMs,
                    qint64 toMs);

Q_SIGNALS:
    // Drag to zoom inside the chart: the owner may move every panel to that range.
    void rangeSelected(qint64 fromMs, qint64 toMs);

private:
    TimeSeriesPanel *m_panel;
};

} // namespace Headroom
