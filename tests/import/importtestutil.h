// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// An import Sink that keeps everything in memory, for the reader tests and the fuzz target.
#pragma once

#include "engine/import/importreader.h"

#include <vector>

namespace Headroom::Test {

class MemorySink : public Import::Sink
{
public:
    struct Point
    {
        int series;
        qint64 tsMs;
        double value;
    };
    int series(const SeriesInfo &info) override
    {
        infos.push_back(info);
        return int(infos.size() - 1);
    }
    void sample(int series, qint64 tsMs, double value) override
    {
        points.push_back({ series, tsMs, value });
    }
    void inTimeOrder() override { timeOrdered = true; }

    std::vector<SeriesInfo> infos;
    std::vector<Point> points;
    bool timeOrdered = false;
};

} // namespace Headroom::Test
