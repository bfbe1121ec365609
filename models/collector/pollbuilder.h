// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The state of one collector poll: the files it read and the PollResult it builds from
// them. Shared by the collectors that read /proc and /sys through a FileSource, so that
// series metadata, unreadable files and parse problems are reported the same way.
#pragma once

#include "collector/collector.h"
#include "collector/filesource.h"

#include <QLoggingCategory>
#include <QString>
#include <QStringList>
#include <optional>

namespace Headroom {

class PollBuilder
{
public:
    // What Q_DECLARE_LOGGING_CATEGORY declares: lcHost, lcNic...
    using LoggingCategory = const QLoggingCategory &(*)();

    // Stamps the batch with sourceConfig.sourceId and `now`; warnings are also logged (at
    // debug level) to `category`, the collector's own.
    PollBuilder(const CollectorConfig &sourceConfig, qint64 now, LoggingCategory category);

    const CollectorConfig &config;
    qint64 ts = 0;
    FileReadResult files;
    PollResult result;

    // One value of the series `metric` with `labels` of this poll's source.
    void add(const QString &metric, const Labels &labels, const QString &unit,
             const QString &resource, UseKind kind, double value);

    void warn(const QString &warning);
    // Each problem a parser found in `path`, as a warning "path: problem".
    void reportProblems(const QString &path, const QStringList &problems);

    // The file's bytes; a warning when it could not be read.
    std::optional<QByteArray> file(const QString &path);

private:
    LoggingCategory m_category;
};

} // namespace Headroom
