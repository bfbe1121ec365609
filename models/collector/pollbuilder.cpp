// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "collector/pollbuilder.h"

namespace Headroom {

using namespace Qt::StringLiterals;

PollBuilder::PollBuilder(const CollectorConfig &sourceConfig, qint64 now, LoggingCategory category)
    : config(sourceConfig)
    , ts(now)
    , m_category(category)
{
    result.batch.source = config.sourceId;
    result.batch.tsMs = now;
}

void PollBuilder::add(const QString &metric, const Labels &labels, const QString &unit,
                      const QString &resource, UseKind kind, double value)
{
    result.batch.add({ config.sourceId, metric, labels }, unit, resource, kind, value);
}

void PollBuilder::warn(const QString &warning)
{
    qCDebug(m_category) << config.sourceId << warning;
    result.warnings << warning;
}

void PollBuilder::reportProblems(const QString &path, const QStringList &problems)
{
    for (const QString &problem : problems)
        warn(path + u": "_s + problem);
}

std::optional<QByteArray> PollBuilder::file(const QString &path)
{
    const auto it = files.contents.constFind(path);
    if (it != files.contents.cend())
        return *it;
    warn(u"cannot read %1: %2"_s.arg(path, files.errors.value(path, u"not read"_s)));
    return std::nullopt;
}

} // namespace Headroom
