// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "blockingtree.h"

#include <QHash>
#include <QSet>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// pid, application, user, query and, over TCP, client: who a session is.
Labels identityLabels(const LockSession &s)
{
    Labels labels { { u"pid"_s, QString::number(s.pid) },
                    { u"application"_s, s.application },
                    { u"user"_s, s.user },
                    { u"query"_s, s.query } };
    if (!s.client.isEmpty()) // none over a Unix socket
        labels.insert(u"client"_s, s.client);
    return labels;
}

} // namespace

BlockingTree buildBlockingTree(const QList<LockSession> &sessions)
{
    BlockingTree tree;
    QHash<int, const LockSession *> byPid;
    QHash<int, QList<int>> waitersOf; // blocker -> the sessions waiting on it
    for (const LockSession &s : sessions) {
        byPid.insert(s.pid, &s);
        if (s.blockedBy.isEmpty())
            continue;
        ++tree.blocked;
        for (int blocker : s.blockedBy)
            waitersOf[blocker].append(s.pid);
    }
    for (auto it = waitersOf.cbegin(); it != waitersOf.cend(); ++it) {
        const LockSession *root = byPid.value(it.key());
        // A blocker that waits itself is not a root; one that ended between the two
        // reads of the query is not in the rows at all, and has nothing to show.
        if (!root || !root->blockedBy.isEmpty())
            continue;
        RootBlocker r;
        r.session = *root;
        r.blockedDirectly = int(it.value().size());
        // Every session whose chain of waits reaches the root, each once (a session
        // may wait on two sessions of one chain).
        QSet<int> reached;
        QList<int> queue = it.value();
        while (!queue.isEmpty()) {
            const int pid = queue.takeFirst();
            if (pid == root->pid || reached.contains(pid))
                continue;
            reached.insert(pid);
            queue.append(waitersOf.value(pid));
        }
        r.blockedInAll = int(reached.size());
        tree.roots.append(std::move(r));
    }
    // The nodes: whoever waits on a session, and whoever is waited on and was read.
    for (const LockSession &s : sessions) {
        if (!s.blockedBy.isEmpty() || waitersOf.contains(s.pid))
            tree.sessions.append(s);
    }
    std::sort(tree.sessions.begin(), tree.sessions.end(),
              [](const LockSession &a, const LockSession &b) { return a.pid < b.pid; });
    std::sort(tree.roots.begin(), tree.roots.end(), [](const RootBlocker &a, const RootBlocker &b) {
        if (a.blockedInAll != b.blockedInAll)
            return a.blockedInAll > b.blockedInAll;
        return a.session.pid < b.session.pid;
    });
    return tree;
}

void publishBlockingTree(const BlockingTree &tree, const BlockingTreeSeries &series,
                         const QString &source, SampleBatch &batch)
{
    const QString &resource = series.resource;
    const QString &sessions = series.sessionsUnit;
    // A QString, not a QStringBuilder that would outlive its parts.
    const auto metric
        = [&](QStringView name) -> QString { return series.metricPrefix + u'.' + name; };
    batch.add({ source, metric(u"blocked"), {} }, sessions, resource, UseKind::Saturation,
              tree.blocked);
    batch.add({ source, metric(u"root_blockers"), {} }, sessions, resource, UseKind::Saturation,
              double(tree.roots.size()));
    for (qsizetype i = 0; i < std::min<qsizetype>(tree.roots.size(), series.maxRoots); ++i) {
        const RootBlocker &root = tree.roots.at(i);
        const LockSession &s = root.session;
        const Labels labels = identityLabels(s);
        batch.add({ source, metric(u"root_blocked"), labels }, sessions, resource,
                  UseKind::Saturation, root.blockedInAll);
        batch.add({ source, metric(u"root_blocked_direct"), labels }, sessions, resource,
                  UseKind::Saturation, root.blockedDirectly);
        batch.add({ source, metric(u"root_xact_age_s"), labels }, u"s"_s, resource,
                  UseKind::Saturation, std::max(0.0, s.xactAgeS));
    }
    for (qsizetype i = 0; i < std::min<qsizetype>(tree.sessions.size(), series.maxSessions); ++i) {
        const LockSession &s = tree.sessions.at(i);
        Labels labels = identityLabels(s);
        labels.insert(u"state"_s, s.state);
        if (!s.blockedBy.isEmpty())
            labels.insert(u"blocked_by"_s, QString::number(s.blockedBy.constFirst()));
        if (!s.waitEvent.isEmpty())
            labels.insert(u"wait"_s, s.waitEvent);
        batch.add({ source, metric(u"session_xact_age_s"), labels }, u"s"_s, resource,
                  UseKind::Info, std::max(0.0, s.xactAgeS));
    }
}

} // namespace Headroom
