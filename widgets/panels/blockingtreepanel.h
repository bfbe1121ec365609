// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The blocking tree panel ("type": "blockingtree"): who blocks whom at the newest poll
// of the range (query/locks/blockingtreequery.h), each root blocker a top-level row
// with the sessions waiting on it below it, every row expanded; the query in full as
// the query cell's tooltip. "No session blocks another" when the tree is empty.
#pragma once

#include "panels/panelwidget.h"

class QLabel;
class QTreeView;

namespace Headroom {

class BlockingTreeModel;

class BlockingTreePanel : public PanelWidget
{
    Q_OBJECT
public:
    explicit BlockingTreePanel(const DashboardPanel &config, QWidget *parent = nullptr);

    QTreeView *view() const { return m_view; }
    QLabel *emptyLabel() const { return m_empty; }

protected:
    void showData() override;

private:
    BlockingTreeModel *m_model;
    QLabel *m_title;
    QTreeView *m_view;
    QLabel *m_empty;
};

} // namespace Headroom
