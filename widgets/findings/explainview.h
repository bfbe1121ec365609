// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// "What changed" for a window: the ranking of every series by how differently it
// behaved in the window than in the 4x longer baseline before it (Kolmogorov-Smirnov
// D), grouped by resource, under a line that names the window.
#pragma once

#include <QWidget>

class QLabel;
class QTreeView;

namespace Headroom {

class ChangeRankModel;

class ExplainView : public QWidget
{
    Q_OBJECT
public:
    explicit ExplainView(ChangeRankModel *model, QWidget *parent = nullptr);

    QTreeView *tree() const { return m_tree; }
    QString caption() const;
    // Shows that a run for [fromMs, toMs] is under way.
    void showRunning(qint64 fromMs, qint64 toMs);
    // After the model got the run's ranks.
    void showResult();

private:
    ChangeRankModel *m_model;
    QLabel *m_caption;
    QTreeView *m_tree;
};

} // namespace Headroom
