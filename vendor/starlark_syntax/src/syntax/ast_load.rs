/*
 * Copyright 2018 The Starlark in Rust Authors.
 * Copyright (c) Facebook, Inc. and its affiliates.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

use starlark_map::small_map::SmallMap;

use crate::codemap::FileSpan;

/// A `load` statement loading zero or more symbols from another module.
#[derive(Debug)]
pub struct AstLoad<'a> {
    /// Span where this load is written
    pub span: FileSpan,
    /// Module being loaded
    pub module_id: &'a str,
    /// Symbols loaded from that module (local ident -> source ident)
    pub symbols: SmallMap<&'a str, &'a str>,
}
