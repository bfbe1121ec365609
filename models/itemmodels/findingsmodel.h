// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The analysis' answers as item models for the Findings dock: FindingsModel lists the
// ranked findings of a range (one row each, with the signal's binned values for a
// sparkline); ChangeRankModel is "What changed" for a window, a tree grouped by
// resource (the resource's best D first, its series below).
//
// A live refresh updates FindingsModel in place: a finding is the same one while its
// source, resource and kind stay (FindingsModel::identity); its row is moved to its
// new rank (beginMoveRows), changed in place (dataChanged), and findings that came or
// went are inserted or removed. So a selection and the current row follow the finding,
// not the row number. ChangeRankModel is reset on each run: an explanation is asked
// for once per window, there is nothing to keep.
#pragma once

#include "query/analysis/findings.h"
#include "query/analysis/whatchanged.h"

#include <QAbstractItemModel>
#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <vector>

namespace Headroom {

// The range to show for a finding: its onset with some time before it (at least 2 min,
// and 1.5 times its duration) and a little after its end, clamped to the data range
// [dataFromMs, dataToMs] the finding was found in (the onset always stays inside).
std::pair<qint64, qint64> findingFocusWindow(const Analysis::Finding &finding, qint64 dataFromMs,
                                             qint64 dataToMs);
// The compare overlay offset for "Compare before/after": the finding's duration (at
// least a minute), so the span after the onset is overlaid by the same span before it.
qint64 findingCompareOffset(const Analysis::Finding &finding);

class FindingsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        RankColumn,
        SourceColumn,
        ResourceColumn,
        KindColumn,
        SinceColumn,
        TrendColumn, // the sparkline (painted by the view's delegate)
        ScoreColumn,
        SummaryColumn,
        ColumnCount
    };
    enum Role
    {
        FindingRole = Qt::UserRole + 1, // Analysis::Finding
        OnsetRole, // qint64 ms since the epoch (sinceMs)
        OnsetIsoRole, // QString, ISO 8601 UTC
        EvidenceIdsRole, // QList<int>
        ScoreRole, // double 0..1
        SparklineRole, // QList<double>: the signal's bin values over the range, oldest first
        IdentityRole, // QString: source, resource and kind (what stays while it lasts)
    };

    using QAbstractTableModel::QAbstractTableModel;

    // findings in rank order; sparklines by signal series id (missing: no sparkline).
    void setFindings(const std::vector<Analysis::Finding> &findings,
                     const QHash<int, QList<double>> &sparklines = {});
    const Analysis::Finding *finding(int row) const;
    int rowOf(const QString &identity) const; // -1 when absent
    static QString identity(const Analysis::Finding &finding);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    struct Row
    {
        Analysis::Finding finding;
        QList<double> sparkline;
        QString identity;
    };
    static bool sameContent(const Row &a, const Row &b);

    QList<Row> m_rows;
};

// What changed in a window: top-level rows are resources (by their best D), children
// the series of that resource (by D). Columns: name, D, baseline median, window median.
class ChangeRankModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        KsColumn,
        BaselineColumn,
        WindowColumn,
        ColumnCount
    };
    enum Role
    {
        SeriesIdRole = Qt::UserRole + 1, // int, on series rows (0 on resource rows)
        KsRole, // double
        SeriesKeyRole, // SeriesKey, on series rows
    };

    using QAbstractItemModel::QAbstractItemModel;

    // ranks as rankChanges returns them (by D); the window they explain.
    void setRanks(const std::vector<Analysis::ChangeRank> &ranks, qint64 windowFromMs,
                  qint64 windowToMs);
    qint64 windowFrom() const { return m_windowFromMs; }
    qint64 windowTo() const { return m_windowToMs; }
    // The series of all resources in rank order of their groups (for tests and export).
    QList<int> seriesInOrder() const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    struct Group
    {
        QString resource;
        std::vector<Analysis::ChangeRank> ranks;
    };
    // internalId: 0 for a resource row, group index + 1 for a series row.
    std::vector<Group> m_groups;
    qint64 m_windowFromMs = 0;
    qint64 m_windowToMs = 0;
};

} // namespace Headroom
