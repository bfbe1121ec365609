// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The top-shards table: one row per shard, busiest first, the first `top` rows
// (options top, columns, overloadedPercent; see shardquery.h), load drawn as a bar,
// a filter on the shard name. Picking a row asks every panel to highlight that
// shard ({set, shard}); a highlight from elsewhere selects the matching rows.
#pragma once

#include "itemmodels/shardtableproxies.h"
#include "panels/panelwidget.h"

class QLabel;
class QLineEdit;
class QTableView;

namespace Headroom {

class LoadBarDelegate;
class ShardTableModel;

class ShardTablePanel : public PanelWidget
{
    Q_OBJECT
public:
    explicit ShardTablePanel(const DashboardPanel &config, QWidget *parent = nullptr);

    void setHighlight(const Labels &labels) override;

    QTableView *view() const { return m_view; }
    QLineEdit *filterEdit() const { return m_filter; }
    const ShardTableChain &chain() const { return m_chain; }
    LoadBarDelegate *loadDelegate() const { return m_delegate; }

protected:
    void showData() override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void placeDelegate();
    void placeEmptyLabel();
    void selectionChanged();
    void applyHighlight();

    ShardTableModel *m_model;
    ShardTableChain m_chain;
    QLabel *m_title;
    QLineEdit *m_filter;
    QTableView *m_view;
    LoadBarDelegate *m_delegate;
    QLabel *m_empty;
    Labels m_highlight;
    bool m_quiet = false; // selection changes of our own making emit nothing
};

} // namespace Headroom
