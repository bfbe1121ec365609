// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Which time range the dashboard shows: the last rangeMs up to now while following live
// data, or a fixed [from, to] once the user zooms, pauses or picks a custom range.
// While following, a range longer than the data present starts where the data does
// (at least MinimumGrowingMs back), so a fresh start draws its first seconds across the
// charts and the range grows until it reaches the chosen length.
// GUI-free, and told the time, so that the rules MainWindow applies can be tested.
#pragma once

#include <QList>
#include <QString>
#include <utility>

namespace Headroom {

// Where a range [fromMs, toMs] starts while its data is shorter than it: where the data
// starts (dataStartMs; 0: not known), but at least MinimumGrowingMs before toMs, and
// never before fromMs. The window's following range and the headless exports share it.
qint64 growingRangeStart(qint64 fromMs, qint64 toMs, qint64 dataStartMs);

// A choice of the range combo box: its label and length.
struct RangePreset
{
    QString name;
    qint64 ms = 0;
};

class RangeController
{
public:
    static constexpr qint64 DefaultRangeMs = 15 * 60 * 1000;
    static constexpr qint64 MinimumGrowingMs = 60 * 1000;

    // The range combo's presets (5m to 24h), shortest first.
    static const QList<RangePreset> &presets();

    // [from, to] to query at nowMs.
    std::pair<qint64, qint64> range(qint64 nowMs) const;
    bool following() const { return m_following; }
    // The range length: what a following range covers and what a dashboard saves.
    qint64 rangeMs() const { return m_rangeMs; }

    // A new range length. While paused the fixed range becomes the last rangeMs up to
    // nowMs; while following only the length changes.
    void setRangeMs(qint64 rangeMs, qint64 nowMs);
    // Show [fromMs, toMs] (a drag on a chart, a custom range) and stop following; an
    // empty [fromMs, toMs] pauses on the range shown at nowMs instead.
    void zoom(qint64 fromMs, qint64 toMs, qint64 nowMs);
    // Pausing freezes the range shown at nowMs unless a zoom already fixed one;
    // resuming forgets the fixed range.
    void setFollowing(bool follow, qint64 nowMs);
    // The earliest point of results queried from queriedFromMs (0: they had none). Only
    // results over the whole chosen length say where the data starts; narrower ones,
    // queried since, are ignored. A new length, a zoom or a resume forgets it.
    void noteDataStart(qint64 earliestMs, qint64 queriedFromMs, qint64 nowMs);
    // Nothing may be assumed about the data any more (another dashboard or cache).
    void forgetDataStart() { m_dataStart = 0; }

private:
    bool m_following = true;
    qint64 m_rangeMs = DefaultRangeMs;
    qint64 m_fixedFrom = 0, m_fixedTo = 0; // when not following
    qint64 m_dataStart = 0; // where the shown data starts; 0: not known
};

} // namespace Headroom
