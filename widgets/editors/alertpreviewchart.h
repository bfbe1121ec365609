// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The rule editor's preview: the watched series over the visible range, the threshold
// (dashed) and recovery threshold (dotted), and the spans the rule would have been
// firing, shaded in its severity's colour. Painted directly: a few series of a range.
#pragma once

#include "query/alerts/alertpreview.h"

#include <QWidget>

namespace Headroom {

class AlertPreviewChart : public QWidget
{
    Q_OBJECT
public:
    explicit AlertPreviewChart(QWidget *parent = nullptr);

    void setPreview(const AlertPreview &preview, const AlertRule &rule);
    const AlertPreview &preview() const { return m_preview; }
    QSize sizeHint() const override { return { 520, 160 }; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    AlertPreview m_preview;
    AlertRule m_rule;
};

} // namespace Headroom
