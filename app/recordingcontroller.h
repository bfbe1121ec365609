// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The cache the window's session reads: the live cache collection writes to (its path
// and retention, from the command line or the setting), a recording opened in its place
// read-only, and a recording saved from the range shown, in the pool. GUI-free, so the
// tests link it; the window asks for files and days and shows what comes back.
#pragma once

#include "retentionsetting.h"

#include <QByteArray>
#include <QFuture>
#include <QList>
#include <QObject>
#include <QString>
#include <utility>

namespace Headroom {

class MonitoringSession;

class RecordingController : public QObject
{
    Q_OBJECT
public:
    explicit RecordingController(MonitoringSession *session, QObject *parent = nullptr);
    ~RecordingController() override; // waits for a save in flight: it reads the cache

    // The cache collection goes back to when a recording is closed (empty: none), and
    // the retention it was opened with.
    void setLiveCache(const QString &path, const RetentionDays &retention);

    // Whether the session reads the recording at path.
    bool isOpen(const QString &path) const;
    // Opens path as the session's cache, read-only. When it cannot be read, *error says
    // why and the live cache is opened again, so that the window is not left empty.
    // The session must be stopped and nothing may read its cache.
    bool open(const QString &path, QString *error);
    // Opens the live cache in place of a recording; as open(), the session stopped.
    bool close(QString *error);

    // The retention collection uses: the one chosen for this run, else the setting.
    RetentionDays retention() const;
    // Keeps days as the setting and for this run, and applies them to a live cache.
    void setRetention(const RetentionDays &days);

    // Whether there is a cache to save a recording from (none with --no-cache, or when
    // it could not be opened).
    bool canSave() const;
    // Writes [fromMs, toMs] of the session's cache and the dashboards (name, JSON) to
    // path, in the pool; saved() or saveFailed() when done. Flush the cache first for
    // the last second to be in it.
    void save(const QString &path, const QList<std::pair<QString, QByteArray>> &dashboards,
              qint64 fromMs, qint64 toMs);
    // Returns once no save reads the cache any more.
    void waitForSave();

Q_SIGNALS:
    void saved(const QString &message); // "Saved PATH: N series, …"
    void saveFailed(const QString &error);

private:
    MonitoringSession *m_session;
    QString m_liveCachePath;
    RetentionDays m_retention; // chosen for this run (0: the setting)
    QFuture<QString> m_save; // "!" and the error, or the message
};

} // namespace Headroom
