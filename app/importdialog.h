// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// File ▸ Import…: the file of another tool's metrics and, optionally, its import map
// (docs/import.md), each with a Browse… button.
#pragma once

#include <QString>
#include <optional>

class QWidget;

namespace Headroom {

struct ImportChoice
{
    QString file;
    QString map; // empty: none
};

// nullopt when cancelled.
std::optional<ImportChoice> askImport(QWidget *parent);

} // namespace Headroom
