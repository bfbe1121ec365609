// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Helpers shared by the GUI tests that look at rendered pixels.
#pragma once

#include <QColor>
#include <QDir>
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

// Writes a 40×40 pure red PNG into dir and returns its absolute path (empty when it
// cannot): markup naming it (<img src=...>) would draw red pixels, and no chart colour
// is near pure red.
inline QString writeRedPng(const QDir &dir)
{
    QImage red(40, 40, QImage::Format_RGB32);
    red.fill(QColor(255, 0, 0));
    const QString path = dir.absoluteFilePath(QStringLiteral("red.png"));
    return red.save(path, "PNG") ? path : QString();
}

} // namespace Headroom::Test
