// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What the dashboard file tests share: the fixtures, JSON from text, a small valid
// dashboard patched at JSON paths into the file a test needs, a dashboard with every
// field set, and a comparison of two dashboards field by field.
#pragma once

#include "document/dashboard.h"

#include <QByteArray>
#include <QJsonValue>
#include <QString>
#include <initializer_list>
#include <utility>

namespace Headroom::Test {

QString fixture(const QString &name); // tests/fixtures/dashboards/name
QByteArray readAll(const QString &path);
QJsonObject object(const char *json);

// A small valid dashboard the malformed rows start from.
extern const char *const baseJson;

using Patch = std::pair<const char *, QJsonValue>;
// baseJson with each patch applied: the value set at a path like "panels[0].layout.w"
// (an index one past the end appends), or removed by `removed`.
QByteArray patched(std::initializer_list<Patch> patches);
extern const QJsonValue removed;

// Field by field, so that a failure names what differs.
void compareDashboards(const Dashboard &actual, const Dashboard &expected);
// Every field set to something other than its default.
Dashboard fullDashboard();

} // namespace Headroom::Test
