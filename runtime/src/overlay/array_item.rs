//! An array item of an overlay merged into the array it overlays.

use super::*;

/// Whether [`merge_array_item`] appends `item` as it is: an item without annotations that is
/// no document (a document of a document set needs its `#@overlay/match`).
pub(super) fn appended_as_it_is(item: &Tree) -> bool {
    item.anns.is_empty() && !matches!(item.kind, TreeKind::Document)
}

pub(super) fn merge_array_item(
    elems: &mut Vec<Tree>,
    mut item: Tree,
    mode: Mode,
    calls: Calls,
    defaults: &ChildDefaults,
    parent: &Path,
) -> Result<(), OverlayError> {
    check_annotations(&item, Some(parent))?;
    let path = Path::at(&item.kind, &item.pos, Some(parent));
    // A document of a document set (`overlay.apply` of fragments of documents) is matched only
    // by its `#@overlay/match`, which needs a keyword argument (unless it is appended).
    let document = matches!(item.kind, TreeKind::Document);
    let appended = operation(&item).is_some_and(|op| op.name == "overlay/append");
    if document
        && !appended
        && item
            .ann("overlay/match")
            .is_none_or(|m| m.kwargs.is_empty())
    {
        return Err(path.error(
            "Expected 'overlay/match' annotation to have at least one keyword argument (by=..., expects=...)",
        ));
    }
    or_add_is_bool(&item, &path)?;
    if item.ann("overlay/match").is_none() {
        insert_position_given(&item, &path)?;
    }
    // Without `#@overlay/match`, an item that merges is appended and any other operation
    // matches nothing (ytt does not check `expects` then; a replacement with `or_add=True` is
    // appended); `#@overlay/match` needs `by=`.
    let merges = [
        "overlay/replace",
        "overlay/remove",
        "overlay/insert",
        "overlay/assert",
    ]
    .iter()
    .all(|op| item.ann(op).is_none());
    let matcher = match item.ann("overlay/match") {
        Some(m) if has_kwarg(m, "by") => m,
        Some(_) if item.ann("overlay/append").is_none() => {
            // (ytt's words for a document have two spaces)
            let space = if document { "  " } else { " " };
            return Err(path.error(format!(
                "Expected 'overlay/match' annotation keyword argument 'by'{space}to be specified"
            )));
        }
        _ if merges || item.ann("overlay/append").is_some() || added_when_unmatched(&item) => {
            if let Some(returned) = added_unmatched(&item, calls, &path)? {
                put_returned(&mut item, returned);
            }
            elems.push(item);
            return Ok(());
        }
        _ => return Ok(()),
    };
    if item.ann("overlay/append").is_some() {
        elems.push(item);
        return Ok(());
    }
    let expects = defaults.expects(&item, mode);
    let by = Matcher::of(matcher);
    by.check().map_err(|e| path.error(e))?;
    charge_tests((elems.len() as u64).saturating_mul(by.cost()), &path)?;
    let mut matches = Vec::new();
    for (i, elem) in elems.iter().enumerate() {
        if by
            .matches(&Value::Int(i as i64), &elem.value, &item.value, calls)
            .map_err(|e| path.error(e))?
        {
            matches.push(i);
        }
    }
    let lines = || matches.iter().map(|&i| elems[i].pos.to_string()).collect();
    if !expects
        .met(matches.len(), &lines, calls)
        .map_err(|e| path.error(e))?
    {
        return Ok(());
    }
    // (ytt reads `#@overlay/insert` once the item is matched)
    insert_position_given(&item, &path)?;
    if matches.is_empty() {
        // A document that merges is not added (a replacement with `or_add=True` is).
        let merges_document =
            document && !matches!(operation(&item), Some(op) if op.name != "overlay/merge");
        if added_when_unmatched(&item) && !merges_document {
            if let Some(returned) = added_unmatched(&item, calls, &path)? {
                put_returned(&mut item, returned);
            }
            elems.push(item);
        }
        return Ok(());
    }
    if item.ann("overlay/assert").is_some() {
        return assert_matched(elems, &matches, &item, mode, calls, defaults, &path);
    }
    if item.ann("overlay/remove").is_some() {
        for &i in matches.iter().rev() {
            elems.remove(i);
        }
        return Ok(());
    }
    if let Some(insert) = item.ann("overlay/insert") {
        // A copy of the item goes before and/or after each match, its value what `via=` (if
        // given) makes of the match's and the item's, called for each match in order.
        let before = truthy(kwarg(insert, "before").as_deref());
        let after = truthy(kwarg(insert, "after").as_deref());
        let via = via_function(insert).map_err(|e| path.error(e))?;
        let mut copies = Vec::new();
        for &i in &matches {
            let mut copy = item.clone();
            if let Some(f) = &via {
                let returned =
                    call(calls, f, &[&elems[i].value, &item.value]).map_err(|e| path.error(e))?;
                put_returned(&mut copy, returned);
            }
            copies.push(copy);
        }
        for (&i, copy) in matches.iter().zip(copies).rev() {
            if after {
                elems.insert(i + 1, copy.clone());
            }
            if before {
                elems.insert(i, copy);
            }
        }
        return Ok(());
    }
    let replace = item.ann("overlay/replace").is_some();
    let shared_new = shared_replacement(&item.value, matches.len());
    let values = one_per_match(std::mem::take(&mut item.value), matches.len());
    // In order, as ytt (the first failing match is the one reported).
    for (&i, value) in matches.iter().zip(values) {
        if replace {
            let returned = replacement(&item, &elems[i].value, value, calls, &path)?;
            elems[i].pos = item.pos;
            elems[i].anns = item.anns.clone();
            put_returned(&mut elems[i], returned);
        } else {
            merge_matched(
                &mut elems[i],
                item.pos,
                value,
                shared_new,
                mode,
                |_| {},
                |left, value, _| {
                    merge_value(left, value, &item.anns, mode, calls, defaults, &path, None)
                },
            )?;
        }
    }
    Ok(())
}
