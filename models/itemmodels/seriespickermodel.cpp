// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "itemmodels/seriespickermodel.h"

#include <KDescendantsProxyModel>
#include <QRegularExpression>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

SeriesPickerModel::SeriesPickerModel(QAbstractItemModel *tree, QObject *parent)
    : QSortFilterProxyModel(parent)
    , m_descendants(new KDescendantsProxyModel(this))
{
    m_descendants->setDisplayAncestorData(true);
    m_descendants->setAncestorSeparator(Separator.toString());
    m_descendants->setSourceModel(tree);
    setSourceModel(m_descendants);
}

SeriesPickerModel::~SeriesPickerModel() = default;

QAbstractItemModel *SeriesPickerModel::descendants() const
{
    return m_descendants;
}

void SeriesPickerModel::setFilterText(const QString &text)
{
    static const QRegularExpression whitespace(u"\\s+"_s);
    const QStringList words = text.split(whitespace, Qt::SkipEmptyParts);
    m_text = text;
    if (words == m_words)
        return;
    m_words = words;
    invalidateFilter();
}

bool SeriesPickerModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_words.isEmpty())
        return true;
    const QString text = sourceModel()->index(sourceRow, 0, sourceParent).data().toString();
    return std::all_of(m_words.cbegin(), m_words.cend(), [&](const QString &word) {
        return text.contains(word, Qt::CaseInsensitive);
    });
}

} // namespace Headroom
