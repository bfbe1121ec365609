// The USE matrix panel: a table of sources' resources (rows, "CPU" or "web2 · CPU") by
// Utilization, Saturation and Errors (columns), each cell the worst figure in the range
// and, raised, since when ("92 % since 14:03"), coloured by its level: green ok, amber
// warning, red critical, grey without a sample or not measured; a stale cell (no
// current sample) keeps its level's colour half-greyed, in italics. Clicking a cell
// asks for a time chart of every series behind it (chartRequested).
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

protected:
    void showData() override;

private:
    void cellClicked(const QModelIndex &index);

    UseMatrixModel *m_model;
    QTableView *m_view;
    QLabel *m_title;
    QLabel *m_emptyLabel;
    QLabel *m_message; // an engine's error (a fleet matrix)
};

} // namespace Headroom
