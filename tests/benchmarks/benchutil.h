// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What every benchmark prints and how it times: "name: value" lines that scripts can
// read (4 decimals below 1, else 2), and the median wall time of repeated runs.
#pragma once

#include <QElapsedTimer>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace Headroom::Bench {

inline void print(const char *name, double value)
{
    std::printf(std::abs(value) < 1 ? "%s: %.4f\n" : "%s: %.2f\n", name, value);
    std::fflush(stdout);
}

// Median wall time of `runs` calls of f, in ms.
template<typename F> double medianMs(int runs, F f)
{
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer timer;
        timer.start();
        f();
        times.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

} // namespace Headroom::Bench
