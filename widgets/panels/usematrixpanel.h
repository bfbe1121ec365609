// The USE matrix panel: a table of resources (rows) by Utilization, Saturation and
// Errors (columns), each cell the current figure coloured by its level: green ok,
// amber warning, red critical, grey stale or not measured. Clicking a cell asks for a
// time chart of every series behind it (chartRequested).
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

protected:
    void showData() override;

private:
    void cellClicked(const QModelIndex &index);

    UseMatrixModel *m_model;
    QTableView *m_view;
    QLabel *m_title;
    QLabel *m_emptyLabel;
};

} // namespace Headroom
