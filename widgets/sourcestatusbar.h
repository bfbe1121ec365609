// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Collector status in the window: a coloured dot and the state per source, the
// reason in the tooltip. Dead sources are impossible to miss. So is a cache that cannot
// store what is collected (disk full, I/O error): a red "cache" entry while it fails,
// orange once writes work again if samples or old days were dropped; else hidden.
#pragma once

#include "collector/sourcestatus.h"
#include "engine/cache/cachestatus.h"

#include <QHash>
#include <QWidget>

class QHBoxLayout;
class QLabel;
class QTimer;

namespace Headroom {

class SampleCache;

class SourceStatusBar : public QWidget
{
    Q_OBJECT
public:
    explicit SourceStatusBar(QWidget *parent = nullptr);
    void updateStatus(const Headroom::SourceStatus &status);
    void clear(); // the sources; the cache entry stays
    void setCacheStatus(const Headroom::CacheStatus &status);
    // Shows cache's status, read once a second (it has no change signal: its writer
    // thread fills it). cache must outlive this widget; nullptr stops following.
    void followCache(const Headroom::SampleCache *cache);
    // The cache entry's text and tooltip, empty while hidden (for tests).
    QString cacheText() const;
    QString cacheToolTip() const;

private:
    QHBoxLayout *m_layout;
    QHash<QString, QLabel *> m_labels;
    QLabel *m_cacheLabel;
    QTimer *m_cacheTimer = nullptr;
    const SampleCache *m_cache = nullptr;
};

} // namespace Headroom
