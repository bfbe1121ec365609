// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A statement's usual cost per call, to tell a plan change from noise: a plan flip (an
// index dropped, statistics gone stale) shows as one statement reading 90x the blocks
// per call it used to, from one interval to the next.
#pragma once

#include <array>
#include <optional>

namespace Headroom {

// One per-call figure of one statement (shared blocks or ms per call), one value per
// interval the statement ran in.
class PlanBaseline
{
public:
    // Intervals remembered; the usual value is their median.
    static constexpr int Size = 15;
    // Values before a ratio is given.
    static constexpr int MinHistory = 3;
    // A value more than this factor off the usual one is not remembered: a changed plan
    // keeps its ratio rather than becoming the usual value within a few intervals...
    static constexpr double Band = 3;
    // ...until it has lasted this many intervals in a row: then it is the new usual
    // (5 minutes at 1 s).
    static constexpr int AdoptAfter = 300;

    // Adds this interval's value and returns it over the usual value before it (the
    // usual value no lower than `floor`, so that a statement reading no blocks is not
    // infinitely changed by one); nullopt while fewer than MinHistory are known.
    std::optional<double> add(double value, double floor);

private:
    double median() const;
    void remember(double value);

    std::array<double, Size> m_values {};
    int m_count = 0;
    int m_next = 0;
    int m_offStreak = 0;
};

} // namespace Headroom
