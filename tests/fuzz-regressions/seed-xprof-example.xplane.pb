
Ñ	/host:CPUòMemoryè"‰À¸"*	GPU_0_bfc" Ð" ¸" ˆ'"š™™™™™Ù?" ´B" È" €"	 ýÈ"
*foo/bar"
*output" "*[3, 3, 512, 512]"TÐ†"*	GPU_0_bfc" Ð" ¸" ˆ)"ÍÌÌÌÌÌÜ?" ´B" È" €"	 ýÈ"‚ð¢"*	GPU_0_bfc" Ð" ˆ'"  "š™™™™™É?" œJ" ¬" ¬"	 ÎŒ"
*mul_grad/Sum"*temp" "
*[1, 2]"MemoryAllocation"MemoryDeallocation*allocator_name*bytes_reserved*bytes_allocated*bytes_available*fragmentation*peak_bytes_in_use*requested_bytes*allocation_bytes*		addr*
	
tf_op*region_type*	data_type*	shape