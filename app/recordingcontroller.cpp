// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "recordingcontroller.h"

#include "engine/cache/recordingsaver.h"
#include "engine/cache/samplecache.h"
#include "engine/monitoringsession.h"

#include <QFutureWatcher>
#include <QtConcurrentRun>

namespace Headroom {

using namespace Qt::StringLiterals;

RecordingController::RecordingController(MonitoringSession *session, QObject *parent)
    : QObject(parent)
    , m_session(session)
{
}

RecordingController::~RecordingController()
{
    waitForSave();
}

void RecordingController::setLiveCache(const QString &path, const RetentionDays &retention)
{
    m_liveCachePath = path;
    m_retention = retention;
}

bool RecordingController::isOpen(const QString &path) const
{
    return m_session->isRecording() && m_session->cache()->path() == path;
}

bool RecordingController::open(const QString &path, QString *error)
{
    const bool opened = m_session->openRecording(path, error);
    // Not readable: back to what collection uses, so the window is not left empty.
    if (!opened && !m_liveCachePath.isEmpty())
        m_session->openCache(m_liveCachePath, nullptr, cacheOptionsWithRetention(m_retention));
    return opened;
}

bool RecordingController::close(QString *error)
{
    return m_session->openCache(m_liveCachePath, error, cacheOptionsWithRetention(m_retention));
}

RetentionDays RecordingController::retention() const
{
    return effectiveRetention(m_retention);
}

void RecordingController::setRetention(const RetentionDays &days)
{
    saveRetentionSetting(days);
    m_retention = days;
    if (SampleCache *cache = m_session->cache(); cache && !cache->isReadOnly()) {
        cache->setRetentionDays(days.raw);
        cache->setTierRetentionDays(days.minute, days.hour);
    }
}

bool RecordingController::canSave() const
{
    return m_session->cache();
}

void RecordingController::save(const QString &path,
                               const QList<std::pair<QString, QByteArray>> &dashboards,
                               qint64 fromMs, qint64 toMs)
{
    const SampleCache *cache = m_session->cache();
    const SeriesRegistry *registry = &m_session->registry();
    auto *watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher] {
        const QString message = watcher->result();
        watcher->deleteLater();
        if (message.startsWith(u'!'))
            Q_EMIT saveFailed(message.mid(1));
        else
            Q_EMIT saved(message);
    });
    m_save = QtConcurrent::run([cache, registry, fromMs, toMs, dashboards, path]() -> QString {
        QString error;
        const auto saved = saveRecording(*cache, *registry, fromMs, toMs, dashboards, path, &error);
        if (!saved)
            return u'!' + error;
        return tr("Saved %1: %2 series, %3 samples, %4 alert events, %5 KiB")
            .arg(path)
            .arg(saved->series)
            .arg(saved->samples)
            .arg(saved->alertEvents)
            .arg((saved->bytes + 1023) / 1024);
    });
    watcher->setFuture(m_save);
}

void RecordingController::waitForSave()
{
    m_save.waitForFinished();
}

} // namespace Headroom
