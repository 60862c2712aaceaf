// Each design fault said in words unlike the seeds': a default, a coupling, a toggle, a closed
// set and a result count, each under another phrasing or name.
use mcp_tool::prelude::*;

#[tool_args]
pub struct ShareFileArgs {
    /// Id of the file to share.
    pub file_id: String,
    /// Access to grant. Allowed values are viewer, commenter and editor.
    pub access: String,
    /// ISO 4217 code of the currency to bill in. Falls back to USD when omitted.
    pub currency: Option<String>,
    /// VAT rate in percent. Must accompany `vat_number`.
    pub vat_rate: Option<u32>,
    /// The customer's VAT registration number.
    pub vat_number: Option<String>,
    /// One line per share with its grantee and date, instead of bare names.
    pub long: Option<bool>,
    /// How many earlier shares of the file to list.
    #[arg(default = 10)]
    pub how_many: u32,
}

fn main() {}
