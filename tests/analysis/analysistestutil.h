// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Tracks built by hand for the detectors' tests: a level, a step, noise, spikes, all
// seeded so that a failure repeats.
#pragma once

#include "query/analysis/findings.h"
#include "query/analysis/seriestrack.h"

#include <QRandomGenerator>
#include <cmath>
#include <functional>

namespace Headroom::AnalysisTest {

inline constexpr qint64 T0 = 1'780'000'000'000; // a whole second

inline SeriesInfo info(const QString &metric, UseKind kind, const QString &unit = QString(),
                       const QString &resource = QStringLiteral("cpu"),
                       const QString &source = QStringLiteral("host"), const Labels &labels = {})
{
    return SeriesInfo { { source, metric, labels }, unit, resource, kind, false };
}

// n bins of 1 s from T0, value(i) each.
inline Analysis::SeriesTrack track(const SeriesInfo &seriesInfo, int n,
                                   const std::function<double(int)> &value, int id = 1)
{
    Analysis::SeriesTrack t;
    t.seriesId = id;
    t.info = seriesInfo;
    t.fromMs = T0;
    t.binMs = 1000;
    t.toMs = T0 + qint64(n) * 1000 - 1;
    for (int i = 0; i < n; ++i) {
        t.times.push_back(T0 + qint64(i) * 1000);
        t.values.push_back(value(i));
    }
    return t;
}

// Gaussian-ish noise of the given sigma (sum of 4 uniforms), seeded per generator.
inline double noise(QRandomGenerator &random, double sigma)
{
    double s = 0;
    for (int k = 0; k < 4; ++k)
        s += random.generateDouble() - 0.5;
    return s * sigma * std::sqrt(3.0);
}

// The first finding about resource, or nullptr.
inline const Analysis::Finding *findingFor(const std::vector<Analysis::Finding> &findings,
                                           const QString &resource)
{
    for (const Analysis::Finding &f : findings)
        if (f.resource == resource)
            return &f;
    return nullptr;
}

} // namespace Headroom::AnalysisTest
