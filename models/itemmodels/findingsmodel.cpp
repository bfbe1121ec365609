// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "itemmodels/findingsmodel.h"

#include "core/valueformat.h"
#include "query/panelquery.h"

#include <QDateTime>
#include <QTimeZone>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;
using Analysis::ChangeRank;
using Analysis::Finding;

std::pair<qint64, qint64> findingFocusWindow(const Finding &finding, qint64 dataFromMs,
                                             qint64 dataToMs)
{
    constexpr qint64 Minute = 60 * 1000;
    const qint64 until = std::max(finding.untilMs, finding.sinceMs);
    const qint64 duration = until - finding.sinceMs;
    const qint64 before = std::max(2 * Minute, duration * 3 / 2);
    const qint64 after = std::max(Minute, duration / 2);
    qint64 from = finding.sinceMs - before;
    qint64 to = until + after;
    if (dataToMs > dataFromMs) {
        from = std::max(from, dataFromMs);
        to = std::min(to, dataToMs);
    }
    // A finding at the data's very edge still gets a window that shows its onset.
    if (to <= finding.sinceMs)
        to = finding.sinceMs + Minute;
    if (from >= finding.sinceMs)
        from = finding.sinceMs - Minute;
    return { from, to };
}

qint64 findingCompareOffset(const Finding &finding)
{
    return std::max<qint64>(60 * 1000, finding.untilMs - finding.sinceMs);
}

QString FindingsModel::identity(const Finding &finding)
{
    return finding.source + u'\x1f' + finding.resource + u'\x1f'
        + Analysis::findingKindName(finding.kind);
}

bool FindingsModel::sameContent(const Row &a, const Row &b)
{
    const Finding &x = a.finding;
    const Finding &y = b.finding;
    return x.rank == y.rank && x.signal == y.signal && x.sinceMs == y.sinceMs
        && x.untilMs == y.untilMs && x.peak == y.peak && x.score == y.score
        && x.summary == y.summary && x.evidenceSeriesIds == y.evidenceSeriesIds
        && x.causedBy == y.causedBy && x.sinceBefore == y.sinceBefore && a.sparkline == b.sparkline;
}

void FindingsModel::setFindings(const std::vector<Finding> &findings,
                                const QHash<int, QList<double>> &sparklines)
{
    QList<Row> next;
    next.reserve(qsizetype(findings.size()));
    QHash<QString, int> wanted;
    for (const Finding &f : findings) {
        Row row { f, sparklines.value(f.signalSeriesId), identity(f) };
        if (wanted.contains(row.identity))
            continue; // merged per resource already; a duplicate would break identity
        wanted.insert(row.identity, int(next.size()));
        next.append(std::move(row));
    }
    // 1. Remove rows that are gone, from the bottom so indexes stay valid.
    for (int i = int(m_rows.size()) - 1; i >= 0; --i) {
        if (wanted.contains(m_rows.at(i).identity))
            continue;
        int first = i;
        while (first > 0 && !wanted.contains(m_rows.at(first - 1).identity))
            --first;
        beginRemoveRows({}, first, i);
        m_rows.remove(first, i - first + 1);
        endRemoveRows();
        i = first;
    }
    // 2. Walk the new order: the row that belongs at i is moved there, updated, or
    //    inserted. Moves keep persistent indexes (the selection) on their finding.
    for (int i = 0; i < int(next.size()); ++i) {
        const Row &target = next.at(i);
        int at = -1;
        for (int j = i; j < int(m_rows.size()); ++j) {
            if (m_rows.at(j).identity == target.identity) {
                at = j;
                break;
            }
        }
        if (at < 0) {
            beginInsertRows({}, i, i);
            m_rows.insert(i, target);
            endInsertRows();
            continue;
        }
        if (at != i) {
            beginMoveRows({}, at, at, {}, i);
            m_rows.move(at, i);
            endMoveRows();
        }
        if (!sameContent(m_rows.at(i), target)) {
            m_rows[i] = target;
            Q_EMIT dataChanged(index(i, 0), index(i, ColumnCount - 1));
        }
    }
    Q_ASSERT(m_rows.size() == next.size());
}

const Finding *FindingsModel::finding(int row) const
{
    return row >= 0 && row < m_rows.size() ? &m_rows.at(row).finding : nullptr;
}

int FindingsModel::rowOf(const QString &id) const
{
    for (int i = 0; i < int(m_rows.size()); ++i)
        if (m_rows.at(i).identity == id)
            return i;
    return -1;
}

int FindingsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int FindingsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FindingsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    const Finding &f = row.finding;
    switch (role) {
    case FindingRole:
        return QVariant::fromValue(f);
    case OnsetRole:
        return f.sinceMs;
    case OnsetIsoRole:
        return QDateTime::fromMSecsSinceEpoch(f.sinceMs, QTimeZone::UTC).toString(Qt::ISODate);
    case EvidenceIdsRole:
        return QVariant::fromValue(f.evidenceSeriesIds);
    case ScoreRole:
        return f.score;
    case SparklineRole:
        return QVariant::fromValue(row.sparkline);
    case IdentityRole:
        return row.identity;
    case Qt::ToolTipRole:
        return u"%1\n%2: %3"_s.arg(
            f.summary, f.signal,
            QDateTime::fromMSecsSinceEpoch(f.sinceMs, QTimeZone::UTC).toString(Qt::ISODate));
    case Qt::TextAlignmentRole:
        if (index.column() == RankColumn || index.column() == ScoreColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case RankColumn:
        return f.rank;
    case SourceColumn:
        return f.source;
    case ResourceColumn:
        // A consequence sits under the finding that explains it (causechain.h), which
        // the ranking puts right before it.
        return f.causedBy > 0 ? QString(u"\u21B3 "_s + f.resource) : f.resource;
    case KindColumn:
        return Analysis::findingKindName(f.kind);
    case SinceColumn:
        // A condition the data starts in has no onset: it began before the data.
        return QString((f.sinceBefore ? u"before "_s : QString())
                       + QDateTime::fromMSecsSinceEpoch(f.sinceMs).toString(u"HH:mm:ss"_s));
    case TrendColumn:
        return {};
    case ScoreColumn:
        return QString::number(f.score, 'f', 2);
    case SummaryColumn:
        return f.summary;
    default:
        return {};
    }
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RankColumn:
        return tr("#");
    case SourceColumn:
        return tr("Source");
    case ResourceColumn:
        return tr("Resource");
    case KindColumn:
        return tr("Kind");
    case SinceColumn:
        return tr("Since");
    case TrendColumn:
        return tr("Trend");
    case ScoreColumn:
        return tr("Score");
    case SummaryColumn:
        return tr("Summary");
    default:
        return {};
    }
}

void ChangeRankModel::setRanks(const std::vector<ChangeRank> &ranks, qint64 windowFromMs,
                               qint64 windowToMs)
{
    beginResetModel();
    m_groups.clear();
    m_windowFromMs = windowFromMs;
    m_windowToMs = windowToMs;
    // ranks come by D, so a group's first rank is its best and groups are created in
    // the order of their best D.
    QHash<QString, size_t> groupOf;
    for (const ChangeRank &rank : ranks) {
        size_t group = m_groups.size();
        if (const auto it = groupOf.constFind(rank.resource); it != groupOf.cend()) {
            group = *it;
        } else {
            groupOf.insert(rank.resource, group);
            m_groups.push_back({ rank.resource, {} });
        }
        m_groups[group].ranks.push_back(rank);
    }
    endResetModel();
}

QList<int> ChangeRankModel::seriesInOrder() const
{
    QList<int> ids;
    for (const Group &group : m_groups)
        for (const ChangeRank &rank : group.ranks)
            ids.append(rank.seriesId);
    return ids;
}

QModelIndex ChangeRankModel::index(int row, int column, const QModelIndex &parent) const
{
    if (column < 0 || column >= ColumnCount || row < 0)
        return {};
    if (!parent.isValid())
        return row < int(m_groups.size()) ? createIndex(row, column, quintptr(0)) : QModelIndex();
    if (parent.internalId() != 0 || parent.row() >= int(m_groups.size()))
        return {};
    const Group &group = m_groups[size_t(parent.row())];
    return row < int(group.ranks.size()) ? createIndex(row, column, quintptr(parent.row()) + 1)
                                         : QModelIndex();
}

QModelIndex ChangeRankModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int ChangeRankModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_groups.size());
    if (parent.internalId() != 0 || parent.column() != 0 || parent.row() >= int(m_groups.size()))
        return 0;
    return int(m_groups[size_t(parent.row())].ranks.size());
}

int ChangeRankModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant ChangeRankModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (index.internalId() == 0) {
        const Group &group = m_groups[size_t(index.row())];
        const double best = group.ranks.empty() ? 0 : group.ranks.front().ks;
        switch (role) {
        case Qt::DisplayRole:
            if (index.column() == NameColumn)
                return group.resource.isEmpty() ? tr("(other)") : group.resource;
            if (index.column() == KsColumn)
                return QString::number(best, 'f', 2);
            return {};
        case KsRole:
            return best;
        case SeriesIdRole:
            return 0;
        default:
            return {};
        }
    }
    const Group &group = m_groups[size_t(index.internalId() - 1)];
    const ChangeRank &rank = group.ranks[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return seriesDisplayName(rank.info);
        case KsColumn:
            return QString::number(rank.ks, 'f', 2);
        case BaselineColumn:
            return formatValue(rank.baselineMedian, rank.info.unit);
        case WindowColumn:
            return formatValue(rank.windowMedian, rank.info.unit);
        default:
            return {};
        }
    case Qt::ToolTipRole:
        return u"%1/%2"_s.arg(rank.info.key.source, rank.info.key.metric);
    case SeriesIdRole:
        return rank.seriesId;
    case KsRole:
        return rank.ks;
    case SeriesKeyRole:
        return QVariant::fromValue(rank.info.key);
    default:
        return {};
    }
}

QVariant ChangeRankModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Resource / series");
    case KsColumn:
        return tr("D");
    case BaselineColumn:
        return tr("Before (median)");
    case WindowColumn:
        return tr("Window (median)");
    default:
        return {};
    }
}

} // namespace Headroom
