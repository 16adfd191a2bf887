enum BrowseCommand { static func run(feedArgument: String?, arguments: Arguments) -> Int32 { 0 } }
