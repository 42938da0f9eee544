module burrow/limbo-go

go 1.19
