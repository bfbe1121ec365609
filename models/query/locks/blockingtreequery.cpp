// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/locks/blockingtreequery.h"

#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "query/csvexport.h"

#include <QSet>
#include <algorithm>
#include <functional>
#include <numeric>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

QString nodeKey(const QString &source, int pid)
{
    return source + u'\x1f' + QString::number(pid);
}

// "pg.locks" of "pg.locks.session_xact_age_s": where the collector's other series are.
QString blockingFamily(const QString &sessionMetric)
{
    const qsizetype dot = sessionMetric.lastIndexOf(u'.');
    return dot > 0 ? sessionMetric.left(dot) : sessionMetric;
}

BlockingNode nodeOf(const BlockingSessionSample &s)
{
    const Labels &labels = s.info.key.labels;
    BlockingNode n;
    n.source = s.info.key.source;
    n.family = blockingFamily(s.info.key.metric);
    n.pid = labels.value(u"pid"_s).toInt();
    n.blockedBy = labels.value(u"blocked_by"_s).toInt();
    n.application = labels.value(u"application"_s);
    n.user = labels.value(u"user"_s);
    n.client = labels.value(u"client"_s);
    n.state = labels.value(u"state"_s);
    n.wait = labels.value(u"wait"_s);
    n.query = labels.value(u"query"_s);
    n.xactAgeS = s.sample.value;
    return n;
}

} // namespace

BlockingTreeData buildBlockingTreeData(const QList<BlockingSessionSample> &samples,
                                       const QHash<QString, qint64> &pollOfSource)
{
    // The sessions of each source's tree poll; a pid seen twice there (two series of one
    // session: its state changed within the poll's labels) counts once.
    QList<BlockingNode> flat;
    QHash<QString, int> byKey;
    qint64 atMs = 0;
    for (const BlockingSessionSample &s : samples) {
        const auto poll = pollOfSource.constFind(s.info.key.source);
        if (poll == pollOfSource.cend() || s.sample.tsMs != *poll)
            continue;
        BlockingNode n = nodeOf(s);
        if (n.pid <= 0 || byKey.contains(nodeKey(n.source, n.pid)))
            continue;
        atMs = std::max(atMs, s.sample.tsMs);
        byKey.insert(nodeKey(n.source, n.pid), int(flat.size()));
        flat.append(std::move(n));
    }
    // Parent links (one per session: the pid it waits on); a blocker that is not a
    // node makes a root.
    QHash<int, QList<int>> childrenOf; // index -> children indices
    QList<int> parentOf(flat.size(), -1);
    QList<int> roots;
    for (int i = 0; i < flat.size(); ++i) {
        const int parent = flat[i].blockedBy > 0
            ? byKey.value(nodeKey(flat[i].source, flat[i].blockedBy), -1)
            : -1;
        if (parent >= 0 && parent != i) {
            parentOf[i] = parent;
            childrenOf[parent].append(i);
        } else {
            roots.append(i);
        }
    }
    // Sessions that only wait on each other have no root: break the cycle at the lowest
    // pid, so that every session is drawn once. With one parent each, what is left is
    // a forest.
    QSet<int> reached;
    const std::function<void(int)> reach = [&](int i) {
        if (reached.contains(i))
            return;
        reached.insert(i);
        for (const auto children = childrenOf.value(i); int c : children)
            reach(c);
    };
    for (int r : std::as_const(roots))
        reach(r);
    QList<int> byPid(flat.size());
    std::iota(byPid.begin(), byPid.end(), 0);
    std::sort(byPid.begin(), byPid.end(), [&](int a, int b) { return flat[a].pid < flat[b].pid; });
    for (int i : std::as_const(byPid)) {
        if (reached.contains(i))
            continue;
        roots.append(i);
        childrenOf[parentOf[i]].removeAll(i);
        reach(i);
    }
    // Subtree sizes, then the order: roots blocking most first, children by pid.
    QHash<int, int> below;
    const std::function<int(int)> count = [&](int i) -> int {
        if (const auto known = below.constFind(i); known != below.cend())
            return *known;
        int n = 0;
        for (const auto children = childrenOf.value(i); int c : children)
            n += 1 + count(c);
        below.insert(i, n);
        return n;
    };
    for (int i = 0; i < flat.size(); ++i)
        count(i);
    std::sort(roots.begin(), roots.end(), [&](int a, int b) {
        if (below.value(a) != below.value(b))
            return below.value(a) > below.value(b);
        if (flat[a].source != flat[b].source)
            return flat[a].source < flat[b].source;
        return flat[a].pid < flat[b].pid;
    });
    BlockingTreeData tree;
    tree.atMs = atMs;
    const std::function<void(int, int, int)> place = [&](int i, int parent, int depth) {
        const int index = int(tree.nodes.size());
        BlockingNode n = flat[i];
        n.depth = depth;
        n.parent = parent;
        n.blockedInAll = below.value(i);
        n.children.clear();
        tree.nodes.append(std::move(n));
        if (parent >= 0)
            tree.nodes[parent].children.append(index);
        else
            tree.roots.append(index);
        QList<int> children = childrenOf.value(i);
        std::sort(children.begin(), children.end(),
                  [&](int a, int b) { return flat[a].pid < flat[b].pid; });
        for (int c : std::as_const(children))
            place(c, index, depth + 1);
    };
    for (int r : std::as_const(roots))
        place(r, -1, 0);
    return tree;
}

PanelData queryBlockingTreePanel(const DashboardPanel &panel, const SeriesRegistry &registry,
                                 const SeriesStore &store, qint64 fromMs, qint64 toMs)
{
    PanelData data;
    data.panelId = panel.id;
    data.fromMs = fromMs;
    data.toMs = toMs;
    // The tree is of the range's end: read only its last minutes.
    const qint64 from = std::max(fromMs, toMs - BlockingTreeLookbackMs);
    QList<BlockingSessionSample> samples;
    QHash<QString, qint64> newestSession; // per source
    QHash<QString, QString> familyOfSource;
    for (const auto ids = matchSeries(panel.series, registry); int id : ids) {
        const auto info = registry.info(id);
        if (!info || info->histogram)
            continue;
        const std::vector<Sample> read = store.read(id, from, toMs);
        if (read.empty())
            continue;
        samples.append({ *info, read.back() });
        qint64 &newest = newestSession[info->key.source];
        newest = std::max(newest, read.back().tsMs);
        familyOfSource.insert(info->key.source, blockingFamily(info->key.metric));
    }
    QHash<QString, qint64> pollOfSource;
    for (auto it = newestSession.cbegin(); it != newestSession.cend(); ++it) {
        qint64 poll = it.value();
        const QString blockedMetric = familyOfSource.value(it.key()) + u".blocked"_s;
        if (const auto blocked = registry.find({ it.key(), blockedMetric, {} })) {
            const std::vector<Sample> polls = store.read(*blocked, from, toMs);
            if (!polls.empty())
                poll = std::max(poll, polls.back().tsMs);
        }
        pollOfSource.insert(it.key(), poll);
    }
    data.payload = buildBlockingTreeData(samples, pollOfSource);
    return data;
}

QString blockingTreeCsvRows(const PanelData &data)
{
    const BlockingTreeData &tree = data.as<BlockingTreeData>();
    QString out;
    for (const BlockingNode &n : tree.nodes) {
        Labels labels { { u"pid"_s, QString::number(n.pid) },
                        { u"depth"_s, QString::number(n.depth) },
                        { u"application"_s, n.application },
                        { u"user"_s, n.user },
                        { u"state"_s, n.state },
                        { u"query"_s, n.query } };
        if (n.blockedBy > 0)
            labels.insert(u"blocked_by"_s, QString::number(n.blockedBy));
        if (!n.client.isEmpty())
            labels.insert(u"client"_s, n.client);
        if (!n.wait.isEmpty())
            labels.insert(u"wait"_s, n.wait);
        out += csvRow(tree.atMs, data.panelId, n.source, n.family + u".session"_s, labels,
                      n.blockedInAll, u"sessions"_s);
    }
    return out;
}

} // namespace Headroom
