// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A searchable list of every known series: type words of the source, metric or
// labels ("cpu all"), pick one or more rows, double click or Enter to choose them.
// A source row stands for all its metrics, a metric row for all its label sets.
#pragma once

#include "document/dashboard.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QListView;

namespace Headroom {

class SeriesPickerModel;
class SeriesRegistry;
class SeriesTreeModel;

class SeriesPicker : public QWidget
{
    Q_OBJECT
public:
    // The registry must outlive the picker; series it learns later appear within a
    // second (it has no change signal, so the picker looks on a timer).
    explicit SeriesPicker(const SeriesRegistry &registry, QWidget *parent = nullptr);
    ~SeriesPicker() override;

    // The selected rows' selectors, in list order.
    QList<SeriesSelector> selectedSelectors() const;

    // Re-reads the registry now.
    void refresh();

    QLineEdit *filterEdit() const { return m_filter; }
    QListView *view() const { return m_view; }
    SeriesPickerModel *model() const { return m_picker; }

    // The text shown for a selector outside the list: "host / host.cpu.utilization /
    // cpu=all", "host / *".
    static QString describe(const SeriesSelector &selector);

Q_SIGNALS:
    // Double click, or Enter in the list or in the filter (the current row, else the
    // first match).
    void seriesChosen(const QList<Headroom::SeriesSelector> &selectors);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void choose();
    void updateCount();

    SeriesTreeModel *m_tree;
    SeriesPickerModel *m_picker;
    QLineEdit *m_filter;
    QListView *m_view;
    QLabel *m_count;
};

} // namespace Headroom
