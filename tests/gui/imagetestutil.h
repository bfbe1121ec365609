// Helpers shared by the GUI tests that look at rendered pixels.
#pragma once

#include <QColor>
#include <QImage>
#include <cstdlib>

namespace Headroom::Test {

// Pixels within a small distance of `color`: lines and dots drawn in it, whatever
// antialiasing did to their edges.
inline int countColor(const QImage &image, QColor color)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            n += std::abs(c.red() - color.red()) + std::abs(c.green() - color.green())
                    + std::abs(c.blue() - color.blue())
                < 40;
        }
    return n;
}

} // namespace Headroom::Test
