// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The USE matrix panel: a table of sources' resources (rows, "CPU" or "web2 · CPU") by
// Utilization, Saturation and Errors (columns), each cell the worst figure in the range
// and, raised, since when ("92 % since 14:03"), coloured by its level: green ok, amber
// warning, red critical, grey without a sample or not measured; a stale cell (no
// current sample) keeps its level's colour half-greyed, in italics. Clicking a cell
// asks for a time chart of every series behind it (chartRequested). The panel is as
// tall as its rows (fittedHeight), whatever its grid height: no empty band under them,
// no scrolling within.
#pragma once

#include "panels/panelwidget.h"
#include "query/use/usematrix.h"

class QLabel;
class QTableView;

namespace Headroom {

class UseMatrixModel;

class UseMatrixPanel : public PanelWidget
{
    Q_OBJECT
public:
    explicit UseMatrixPanel(const DashboardPanel &config, QWidget *parent = nullptr);

    QTableView *tableView() const { return m_view; }
    UseMatrixModel *model() const { return m_model; }

    // The fill of a cell at this level.
    static QColor levelColor(UseLevel level);
    // The fill of a cell at this level, stale or not.
    static QColor cellColor(UseLevel level, bool stale);

    int fittedHeight() const override;

protected:
    void showData() override;

private:
    void cellClicked(const QModelIndex &index);
    // Sizes the table to its rows and says so when the panel's height changes.
    void fitToRows();

    UseMatrixModel *m_model;
    QTableView *m_view;
    QLabel *m_title;
    QLabel *m_emptyLabel;
    QLabel *m_message; // an engine's error (a fleet matrix)
    int m_fittedHeight = -1;
};

} // namespace Headroom
