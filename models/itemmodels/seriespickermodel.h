// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The searchable list behind the series picker: the series tree flattened by a
// KDescendantsProxyModel (every node a row, its text prefixed by its ancestors:
// "host / host.cpu.utilization / cpu=all"), then filtered by the words typed.
#pragma once

#include <QSortFilterProxyModel>

class KDescendantsProxyModel;

namespace Headroom {

class SeriesPickerModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    // The separator between a row's ancestors and itself.
    static constexpr QStringView Separator = u" / ";

    // tree: a SeriesTreeModel (or any tree); it must outlive this model.
    explicit SeriesPickerModel(QAbstractItemModel *tree, QObject *parent = nullptr);
    ~SeriesPickerModel() override;

    // Rows whose flattened text contains every whitespace-separated word of text,
    // in any order, case-insensitively. Empty text shows every row.
    void setFilterText(const QString &text);
    QString filterText() const { return m_text; }

    // The flattening proxy in the middle of the chain (for tests and views).
    QAbstractItemModel *descendants() const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    KDescendantsProxyModel *m_descendants;
    QString m_text;
    QStringList m_words;
};

} // namespace Headroom
