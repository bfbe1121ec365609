// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "charts/chartwindow.h"

#include "panels/timeseriespanel.h"

#include <QVBoxLayout>

namespace Headroom {

ChartWindow::ChartWindow(const DashboardPanel &chart, QWidget *parent)
    : QDialog(parent)
    , m_panel(new TimeSeriesPanel(chart, this))
{
    setAttribute(Qt::WA_DeleteOnClose);
    setModal(false);
    setWindowTitle(chart.title);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_panel);
    resize(800, 420);
    connect(m_panel, &PanelWidget::rangeSelected, this, &ChartWindow::rangeSelected);
}

const DashboardPanel &ChartWindow::chart() const
{
    return m_panel->config();
}

int ChartWindow::columns() const
{
    return std::max(200, m_panel->width());
}

void ChartWindow::setData(const PanelData &panelData)
{
    m_panel->setData(panelData);
}

void ChartWindow::refreshNow(const SeriesRegistry &registry, const SeriesStore &store,
                             qint64 fromMs, qint64 toMs)
{
    setData(queryPanel(chart(), registry, store, fromMs, toMs, columns()));
}

} // namespace Headroom
